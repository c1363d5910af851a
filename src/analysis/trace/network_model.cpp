#include "analysis/trace/network_model.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace parperf::analysis {
namespace {

// The value below which `fraction` of `values` lie (nearest rank).
double percentile(std::vector<double>& values, double fraction) {
  const auto at =
      values.begin() + static_cast<std::ptrdiff_t>(fraction * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

}  // namespace

NetworkModel fit_network(const ActivityGraph& g) {
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
  model.observations = small.size() + large.size();
  if (!small.empty()) model.latency_ns = percentile(small, 0.1);
  // Every message, waited for or not, arrived by its receive's end: its transfer took at most the
  // time from its send's begin to then. The network is never slower than that.
  double fastest_small = std::numeric_limits<double>::infinity();
  g.for_each_edge([&](std::uint32_t k, std::uint32_t i) {
    const GraphEdge& e = g.edges[i];
    if (e.kind == EdgeKind::message && e.source != k && e.bytes <= kSmall)
      fastest_small = std::min(fastest_small, g.time[k] - g.time[e.source]);
  });
  if (fastest_small >= 0 && fastest_small < model.latency_ns) model.latency_ns = fastest_small;
  std::vector<double> rates;
  for (const auto& [bytes, observed] : large)
    if (observed > model.latency_ns)
      rates.push_back(static_cast<double>(bytes) / (observed - model.latency_ns));
  model.large = rates.size();
  if (!rates.empty()) model.bytes_per_ns = percentile(rates, 0.9);
  double slowest_possible = 0;  // bytes a ns
  g.for_each_edge([&](std::uint32_t k, std::uint32_t i) {
    const GraphEdge& e = g.edges[i];
    if (e.kind != EdgeKind::message || e.source == k || e.bytes < kLarge) return;
    const double upper = g.time[k] - g.time[e.source] - model.latency_ns;
    if (upper > 0) slowest_possible = std::max(slowest_possible, static_cast<double>(e.bytes) / upper);
  });
  model.bytes_per_ns = std::max(model.bytes_per_ns, slowest_possible);
  return model;
}

}  // namespace parperf::analysis
