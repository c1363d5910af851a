// The statistics block of DESIGN.md section 3 — count, total, minimum and maximum of a duration —
// kept once for every kind of entry the runtime measures: an interval's entries and its loop
// iterations (interval_tree.hpp), an operation at a site (operation_stats.hpp), a user event
// (user_events.hpp).
//
// Written by one thread and read at any moment by the profile writer, so the words are Relaxed<>:
// recording an entry is two adds and two compares of plain loads and stores, no locked instruction.
#pragma once

#include <cstdint>

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

// A statistics block as the profile states it, in nanoseconds.
struct DurationFigures {
  std::uint64_t count = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;

  // One more entry of `ns` (an entry still running when the process ends counts as complete).
  void add_entry(std::uint64_t ns) noexcept {
    min_ns = count ? (ns < min_ns ? ns : min_ns) : ns;
    max_ns = ns > max_ns ? ns : max_ns;
    sum_ns += ns;
    ++count;
  }
};

// The one conversion of a statistics block into what the profile records. A block without entries
// has a minimum of 0 in the file, not the "no entry yet" sentinel.
inline DurationFigures duration_record(const DurationStats& stats, const TickConverter& clock) noexcept {
  DurationFigures figures;
  figures.count = stats.count.get();
  figures.sum_ns = clock.duration_ns(stats.sum_ticks.get());
  figures.min_ns = figures.count ? clock.duration_ns(stats.min_ticks.get()) : 0;
  figures.max_ns = clock.duration_ns(stats.max_ticks.get());
  return figures;
}

}  // namespace parperf::runtime
