#include "analysis/trace/repair_anchors.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace parperf::analysis {

void LocationAnchors::add(std::uint32_t node, double measured) {
  if (runs_.empty() || node != next_node_)
    runs_.push_back({static_cast<std::uint32_t>(measured_.size()), node});
  next_node_ = node + 1;
  measured_.push_back(measured);
}

std::uint32_t LocationAnchors::node(std::size_t i) const {
  if (!nodes_.empty()) return nodes_[i];
  const auto run =
      std::upper_bound(runs_.begin(), runs_.end(), i,
                       [](std::size_t anchor, const Run& r) { return anchor < r.first_anchor; }) -
      1;
  return run->first_node + static_cast<std::uint32_t>(i - run->first_anchor);
}

void LocationAnchors::finish() {
  const auto key = [&](std::size_t i) { return std::pair(measured_[i], repaired(i)); };
  bool sorted = true;
  for (std::size_t i = 1; i < measured_.size() && sorted; ++i) sorted = !(key(i) < key(i - 1));
  if (!sorted) {
    std::vector<std::uint32_t> order(measured_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    std::vector<double> measured(order.size());
    std::vector<std::uint32_t> nodes(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      measured[i] = measured_[order[i]];
      nodes[i] = node(order[i]);
    }
    measured_ = std::move(measured);
    nodes_ = std::move(nodes);
    runs_ = {};
  }
  measured_.shrink_to_fit();
  runs_.shrink_to_fit();
}

}  // namespace parperf::analysis
