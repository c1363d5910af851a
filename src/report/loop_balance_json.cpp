#include "report/loop_balance_json.hpp"

#include "report/finding_keys.hpp"
#include "report/json_optional.hpp"
#include "report/loop_balance_text.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

// The non-empty buckets, each with its edges in seconds (the last bucket's upper edge is null).
json histogram_json(const format::IterationHistogram& histogram) {
  json buckets = json::array();
  for (std::uint32_t b = 0; b < format::kIterationBuckets; ++b) {
    if (histogram.buckets[b] == 0) continue;
    const std::uint64_t upper = format::iteration_bucket_upper_ns(b);
    buckets.push_back({{"bucket", b},
                       {"lower", static_cast<double>(format::iteration_bucket_lower_ns(b)) / 1e9},
                       {"upper", upper ? json(static_cast<double>(upper) / 1e9) : json(nullptr)},
                       {"count", histogram.buckets[b]}});
  }
  return buckets;
}

}  // namespace

json loop_balance_json(const analysis::LoopBalance& loop, const std::optional<analysis::Finding>& finding) {
  json processors = json::array();
  for (const analysis::ProcessorIterations& p : loop.processors)
    processors.push_back({{"processor", p.processor}, {"count", p.iterations}, {"time", p.time}});
  json branches = json::array();
  for (const analysis::BranchFigures& b : loop.branches)
    branches.push_back({{"name", b.identity.name},
                        {"file", b.identity.file},
                        {"line", b.identity.line},
                        {"value", b.identity.value},
                        {"frequency", b.frequency},
                        {"mean", b.mean},
                        {"total", b.total}});
  json percentiles = nullptr;
  if (loop.percentiles)
    percentiles = {
        {"p50", loop.percentiles->p50}, {"p90", loop.percentiles->p90}, {"p99", loop.percentiles->p99}};
  json found = nullptr;
  if (finding)
    found = {{"kind", "unbalanced_loop"},
             {"remedy", remedy_key(finding->remedy)},
             {"estimated_gain", finding->estimated_gain},
             {"share", finding->share},
             {"text", unbalanced_loop_text(*finding)}};
  return {{"marks", loop.chunks ? "chunks" : "iterations"},
          {"count", loop.count},
          {"total", loop.total},
          {"mean", loop.mean},
          {"min", loop.min},
          {"max", loop.max},
          {"balance_degree", loop.degree},
          {"relative_degree", loop.relative_degree},
          {"alpha", loop.alpha},
          {"balanced", loop.balanced},
          {"std_dev", optional_value(loop.std_dev)},
          {"coefficient_of_variation", optional_value(loop.variation)},
          {"percentiles", std::move(percentiles)},
          {"histogram", loop.histogram ? histogram_json(*loop.histogram) : json(nullptr)},
          {"inner_loop_depth", loop.inner_loop_depth},
          {"processors", std::move(processors)},
          {"processor_min", loop.processor_min},
          {"processor_max", loop.processor_max},
          {"processor_mean", loop.processor_mean},
          {"min_processor", optional_value(loop.min_processor)},
          {"max_processor", optional_value(loop.max_processor)},
          {"processor_imbalance", loop.processor_imbalance},
          {"balance_gain", loop.balance_gain},
          {"branches", std::move(branches)},
          {"branch_cost", optional_value(loop.branch_cost)},
          {"finding", std::move(found)}};
}

}  // namespace parperf::report
