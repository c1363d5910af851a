#include "analysis/trace/network_model.hpp"

#include <algorithm>
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
  for (std::uint32_t k = 0; k < g.nodes(); ++k) {
    if (g.bound_by[k] < 0) continue;
    const GraphEdge& e = g.edges[static_cast<std::size_t>(g.bound_by[k])];
    if (e.kind != EdgeKind::message) continue;
    const double observed = g.cost[k];
    if (e.bytes <= kSmall) small.push_back(observed);
    if (e.bytes >= kLarge) large.emplace_back(e.bytes, observed);
  }
  NetworkModel model;
  model.observations = small.size() + large.size();
  if (!small.empty()) model.latency_ns = percentile(small, 0.1);
  std::vector<double> rates;
  for (const auto& [bytes, observed] : large)
    if (observed > model.latency_ns)
      rates.push_back(static_cast<double>(bytes) / (observed - model.latency_ns));
  model.large = rates.size();
  if (!rates.empty()) model.bytes_per_ns = percentile(rates, 0.9);
  return model;
}

}  // namespace parperf::analysis
