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
  // A live time's new number is its rank among the live marks, which keeps their order: one
  // sequential pass over the table, with rank lookups in the (cache-sized) bitmap.
  const std::vector<std::uint32_t> ranks = latest_marks_.word_ranks();
  for (auto& entry : last_access_.entries())
    if (entry.occupied()) entry.value.time = static_cast<std::uint32_t>(latest_marks_.rank(ranks, entry.value.time));
  const std::size_t live = last_access_.size();
  latest_marks_.reset(std::max(min_capacity_, 2 * live), live);
  now_ = live;
}

}  // namespace parperf::locality
