#include "analysis/rank_view.hpp"

#include <algorithm>
#include <limits>

namespace parperf::analysis {

IntervalTree rank_view(const IntervalTree& tree, std::int64_t rank) {
  constexpr std::size_t kDropped = std::numeric_limits<std::size_t>::max();
  IntervalTree view;
  std::vector<std::size_t> renumbered(tree.intervals.size(), kDropped);
  // Parents precede children, so one forward pass keeps the order and sees every parent first.
  for (std::size_t i = 0; i < tree.intervals.size(); ++i) {
    const MergedInterval& interval = tree.intervals[i];
    MergedInterval kept{interval.identity, interval.level, 0, {}, {}};
    std::copy_if(interval.locations.begin(), interval.locations.end(), std::back_inserter(kept.locations),
                 [&](const LocationStats& s) { return s.location.rank == rank; });
    if (i != 0 && (kept.locations.empty() || renumbered[interval.parent] == kDropped)) continue;
    renumbered[i] = view.intervals.size();
    if (i != 0) {
      kept.parent = renumbered[interval.parent];
      view.intervals[kept.parent].children.push_back(view.intervals.size());
    }
    view.intervals.push_back(std::move(kept));
  }
  std::copy_if(tree.locations.begin(), tree.locations.end(), std::back_inserter(view.locations),
               [&](const Location& l) { return l.rank == rank; });
  for (const auto& [location, facts] : tree.thread_facts)
    if (location.rank == rank) view.thread_facts.emplace(location, facts);
  if (auto it = tree.threads_per_rank.find(rank); it != tree.threads_per_rank.end())
    view.threads_per_rank.emplace(rank, it->second);
  for (const auto& [location, nodes] : tree.node_intervals) {
    if (location.rank != rank) continue;
    std::vector<std::size_t>& mapped = view.node_intervals[location];
    for (std::size_t interval : nodes)
      mapped.push_back(interval < renumbered.size() && renumbered[interval] != kDropped ? renumbered[interval]
                                                                                        : 0);
  }
  return view;
}

}  // namespace parperf::analysis
