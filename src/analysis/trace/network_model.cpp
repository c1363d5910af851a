#include "analysis/trace/network_model.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {
namespace {

// The value below which `fraction` of `values` lie (nearest rank).
// The place of a percentile among `n` sorted values (the nearest below).
std::size_t percentile_rank(std::uint64_t n, double fraction) {
  return static_cast<std::size_t>(fraction * static_cast<double>(n - 1));
}

// The network's figures seen from the whole graph (one process): the observations are all here.
struct WholeGraph {
  double kth_smallest(std::vector<double>& values, std::size_t k) const {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
  }
  std::uint64_t sum(std::uint64_t v) const { return v; }
  double min(double v) const { return v; }
  double max(double v) const { return v; }
};

// Seen from a part (graph_part.hpp): each part holds the observations of the edges into its nodes;
// a percentile is the k-th smallest of every part's.
struct EveryPart {
  PartExchange& exchange;
  double kth_smallest(std::vector<double>& values, std::size_t k) const {
    return kth_smallest_of_parts(exchange, values, k);
  }
  std::uint64_t sum(std::uint64_t v) const { return sum_of_parts(exchange, v); }
  double min(double v) const { return -max_of_parts(exchange, -v); }
  double max(double v) const { return max_of_parts(exchange, v); }
};

template <class Run>
NetworkModel fit(const ActivityGraph& g, const Run& run) {
  constexpr std::uint64_t kSmall = 4096, kLarge = 65536;
  std::vector<double> small;
  std::vector<std::pair<std::uint64_t, double>> large;
  g.for_each_node_with_edges([&](std::uint32_t k) {  // (the others are bound by their previous node)
    const ActivityGraph::Step step = g.measured(k);
    if (step.bound_by < 0) return;
    const GraphEdge& e = g.edges[static_cast<std::size_t>(step.bound_by)];
    if (e.kind != EdgeKind::message) return;
    const double observed = step.cost;
    if (e.bytes <= kSmall) small.push_back(observed);
    if (e.bytes >= kLarge) large.emplace_back(e.bytes, observed);
  });
  NetworkModel model;
  const std::uint64_t smalls = run.sum(small.size());
  model.observations = smalls + run.sum(large.size());
  if (smalls > 0) model.latency_ns = run.kth_smallest(small, percentile_rank(smalls, 0.1));
  // Every message, waited for or not, arrived by its receive's end: its transfer took at most the
  // time from its send's begin to then. The network is never slower than that.
  double fastest_small = std::numeric_limits<double>::infinity();
  g.for_each_edge([&](std::uint32_t k, std::uint32_t i) {
    const GraphEdge& e = g.edges[i];
    if (e.kind == EdgeKind::message && e.source != k && e.bytes <= kSmall)
      fastest_small = std::min(fastest_small, g.time[k] - g.time[e.source]);
  });
  fastest_small = run.min(fastest_small);
  if (fastest_small >= 0 && fastest_small < model.latency_ns) model.latency_ns = fastest_small;
  std::vector<double> rates;
  for (const auto& [bytes, observed] : large)
    if (observed > model.latency_ns)
      rates.push_back(static_cast<double>(bytes) / (observed - model.latency_ns));
  model.large = run.sum(rates.size());
  if (model.large > 0) model.bytes_per_ns = run.kth_smallest(rates, percentile_rank(model.large, 0.9));
  double slowest_possible = 0;  // bytes a ns
  g.for_each_edge([&](std::uint32_t k, std::uint32_t i) {
    const GraphEdge& e = g.edges[i];
    if (e.kind != EdgeKind::message || e.source == k || e.bytes < kLarge) return;
    const double upper = g.time[k] - g.time[e.source] - model.latency_ns;
    if (upper > 0) slowest_possible = std::max(slowest_possible, static_cast<double>(e.bytes) / upper);
  });
  model.bytes_per_ns = std::max(model.bytes_per_ns, run.max(slowest_possible));
  return model;
}

}  // namespace

NetworkModel fit_network(const ActivityGraph& g) { return fit(g, WholeGraph{}); }

NetworkModel fit_network(const GraphPart& part, PartExchange& exchange) {
  return fit(part.graph, EveryPart{exchange});
}

}  // namespace parperf::analysis
