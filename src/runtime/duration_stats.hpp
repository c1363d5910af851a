// The statistics block of DESIGN.md section 3 — count, total, minimum and maximum of a duration —
// kept once for every kind of entry the runtime measures: an interval's entries and its loop
// iterations (interval_tree.hpp), an operation at a site (operation_stats.hpp), a user event
// (user_events.hpp).
//
// Written by one thread and read at any moment by the profile writer, so the words are Relaxed<>:
// recording an entry is two adds and two compares of plain loads and stores, no locked instruction.
#pragma once

#include <cstdint>

#include "format/records.hpp"
#include "runtime/clock.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct DurationStats {
  Relaxed<std::uint64_t> count;
  Relaxed<std::uint64_t> sum_ticks;
  Relaxed<std::uint64_t> min_ticks{~std::uint64_t{0}};  // no entry yet: above every duration
  Relaxed<std::uint64_t> max_ticks;

  void record(std::uint64_t duration) noexcept {
    count.add(1);
    sum_ticks.add(duration);
    if (duration < min_ticks.get()) min_ticks.set(duration);
    if (duration > max_ticks.get()) max_ticks.set(duration);
  }
};

// One more entry of `ns` in a block as the profile states it (an entry still running when the
// process ends counts as complete).
inline void add_entry(format::DurationStats& figures, std::uint64_t ns) noexcept {
  figures.min_ns = figures.count ? (ns < figures.min_ns ? ns : figures.min_ns) : ns;
  figures.max_ns = ns > figures.max_ns ? ns : figures.max_ns;
  figures.sum_ns += ns;
  ++figures.count;
}

// The block as the profile states it, in nanoseconds: the one place of the rule that a block
// without entries has minimum 0.
inline format::DurationStats duration_record(const DurationStats& stats,
                                             const TickConverter& clock) noexcept {
  format::DurationStats figures;
  figures.count = stats.count.get();
  figures.sum_ns = clock.duration_ns(stats.sum_ticks.get());
  figures.min_ns = figures.count ? clock.duration_ns(stats.min_ticks.get()) : 0;
  figures.max_ns = clock.duration_ns(stats.max_ticks.get());
  return figures;
}

}  // namespace parperf::runtime
