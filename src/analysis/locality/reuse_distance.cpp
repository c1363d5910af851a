#include "analysis/locality/reuse_distance.hpp"

#include <algorithm>
#include <vector>

// The popcnt variants: a target attribute on x86-64 (the callers check the CPU first), plain
// copies elsewhere.
#if defined(__x86_64__)
#define PARPERF_TARGET_POPCNT __attribute__((target("popcnt")))
#else
#define PARPERF_TARGET_POPCNT
#endif

namespace parperf::locality {

namespace {

bool cpu_has_popcnt() {
#if defined(__x86_64__)
  __builtin_cpu_init();  // in case this runs in a static initializer, before libgcc's own
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

}  // namespace

ReuseDistanceTracker::ReuseDistanceTracker(std::size_t min_capacity)
    : hardware_popcount_(cpu_has_popcnt()), min_capacity_(std::max<std::size_t>(min_capacity, 2)) {
  latest_marks_.reset(min_capacity_, 0);
}

// The times between compactions: twice the live words, and at least half the table's slots, since a
// compaction walks every slot. A table kept by clear() for the next burst is large from its first
// access: with the capacity of the live words alone, the burst's start walked its tens of MiB every
// 64 Ki accesses.
std::size_t ReuseDistanceTracker::marks_capacity(std::size_t live) {
  return std::max({min_capacity_, 2 * live, last_access_.entries().size() / 2});
}

void ReuseDistanceTracker::clear() {
  last_access_.clear();
  latest_marks_.reset(marks_capacity(0), 0);
  now_ = 0;
  compactions_ = 0;
}

// Inlined into both variants, so that TimeMarks' popcounts are compiled for each.
template <bool kPopcnt>
[[gnu::always_inline]] inline ReuseDistanceTracker::Result ReuseDistanceTracker::access_body(
    std::uint64_t word, std::uint32_t function) {
  if (now_ == latest_marks_.capacity()) {
    if constexpr (kPopcnt) {
      compact_with_popcnt();
    } else {
      compact_portable();
    }
  }
  const std::size_t now = static_cast<std::size_t>(now_++);
  auto [entry, inserted] = last_access_.find_or_insert(word);
  LastAccess& last = entry->value;
  Result result;
  if (!inserted) {
    const std::size_t previous = static_cast<std::size_t>(last.time);
    // Marks before this access: one per distinct word seen, this word's included (at `previous`).
    const std::uint64_t marks = last_access_.size();
    result.distance = marks - latest_marks_.count_up_to_and_clear(previous);
    result.previous_function = last.function;
  }
  latest_marks_.set(now);
  last = LastAccess{static_cast<std::uint32_t>(now), function};
  return result;
}

PARPERF_TARGET_POPCNT ReuseDistanceTracker::Result ReuseDistanceTracker::access_with_popcnt(
    std::uint64_t word, std::uint32_t function) {
  return access_body<true>(word, function);
}

ReuseDistanceTracker::Result ReuseDistanceTracker::access_portable(std::uint64_t word,
                                                                   std::uint32_t function) {
  return access_body<false>(word, function);
}

[[gnu::always_inline]] inline void ReuseDistanceTracker::compact_body() {
  ++compactions_;
  // A live time's new number is its rank among the live marks, which keeps their order: one
  // sequential pass over the table, with rank lookups in the (cache-sized) bitmap.
  const std::vector<std::uint32_t> ranks = latest_marks_.word_ranks();
  for (auto& entry : last_access_.entries())
    if (entry.occupied())
      entry.value.time = static_cast<std::uint32_t>(latest_marks_.rank(ranks, entry.value.time));
  const std::size_t live = last_access_.size();
  latest_marks_.reset(marks_capacity(live), live);
  now_ = live;
}

PARPERF_TARGET_POPCNT void ReuseDistanceTracker::compact_with_popcnt() { compact_body(); }

void ReuseDistanceTracker::compact_portable() { compact_body(); }

}  // namespace parperf::locality
