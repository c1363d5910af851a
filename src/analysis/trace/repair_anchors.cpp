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
  // Checked in one walk along the runs (a node each is found there, not searched for).
  bool sorted = true;
  std::pair<double, double> before{};
  for (std::size_t r = 0, i = 0; r < runs_.size() && sorted; ++r) {
    const std::size_t end = r + 1 < runs_.size() ? runs_[r + 1].first_anchor : measured_.size();
    for (std::uint32_t node = runs_[r].first_node; i < end && sorted; ++i, ++node) {
      const std::pair<double, double> here{measured_[i], times_[node]};
      sorted = i == 0 || !(here < before);
      before = here;
    }
  }
  if (!sorted) {
    std::vector<std::uint32_t> order(measured_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    ChunkedVector<double> measured;
    std::vector<std::uint32_t> nodes(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      measured.push_back(measured_[order[i]]);
      nodes[i] = node(order[i]);
    }
    measured_ = std::move(measured);
    nodes_ = std::move(nodes);
    runs_ = {};
  }
  runs_.shrink_to_fit();
}

std::size_t LocationAnchors::after(double t, std::size_t lo, std::size_t hi) const {
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (t < measured_[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

}  // namespace parperf::analysis
