#include "analysis/locality/reuse_distance.hpp"

#include <algorithm>
#include <vector>

namespace parperf::locality {

ReuseDistanceTracker::ReuseDistanceTracker(std::size_t min_capacity)
    : min_capacity_(std::max<std::size_t>(min_capacity, 2)) {
  latest_marks_.reset(min_capacity_, 0);
}

ReuseDistanceTracker::Result ReuseDistanceTracker::access(std::uint64_t word, std::uint32_t function) {
  if (now_ == latest_marks_.capacity()) compact();
  const std::size_t now = static_cast<std::size_t>(now_++);
  auto [entry, inserted] = last_access_.find_or_insert(word);
  LastAccess& last = entry->value;
  Result result;
  if (!inserted) {
    const std::size_t previous = static_cast<std::size_t>(last.time);
    // Marks before this access: one per distinct word seen, this word's included (at `previous`).
    const std::uint64_t marks = last_access_.size();
    result.distance = marks - latest_marks_.count_up_to(previous);
    result.previous_function = last.function;
    latest_marks_.clear(previous);
  }
  latest_marks_.set(now);
  last = LastAccess{static_cast<std::uint32_t>(now), function};
  return result;
}

void ReuseDistanceTracker::compact() {
  ++compactions_;
  auto& entries = last_access_.entries();
  // Times are distinct and below the capacity: bucket the entries by time instead of sorting.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> entry_at_time(latest_marks_.capacity(), kNone);
  for (std::size_t e = 0; e < entries.size(); ++e)
    if (entries[e].occupied()) entry_at_time[entries[e].value.time] = static_cast<std::uint32_t>(e);
  std::uint64_t renumbered = 0;
  for (const std::uint32_t e : entry_at_time)
    if (e != kNone) entries[e].value.time = static_cast<std::uint32_t>(renumbered++);
  const std::size_t live = static_cast<std::size_t>(renumbered);
  latest_marks_.reset(std::max(min_capacity_, 2 * live), live);
  now_ = renumbered;
}

}  // namespace parperf::locality
