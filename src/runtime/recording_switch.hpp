// The process-wide recording switch and the clock of the time recording was off.
//
// Every way a program switches recording comes here: parperf_control (the annotation API, which
// the collectors call for their programming model's own profiling-control calls), a collector's
// end_recording, and PARPERF_START_PAUSED. While recording is off, time is not measured:
// no interval, operation or event is recorded, and the intervals that stay open across the pause
// (the `program` interval always does) leave the paused time out of their duration. So a program
// that switches recording on around a phase gets the phase's figures, as with other tools.
//
// The pause clock: `paused_ticks(now)` is the total time recording was off from the start of the
// run until `now`. A frame notes it when it begins; its recorded duration is its wall-clock
// duration less what the pause clock advanced meanwhile. Reading it costs two relaxed loads of
// one cache line that changes only when the switch is thrown.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/clock.hpp"

namespace parperf::runtime {

namespace recording_detail {
extern std::atomic<std::uint64_t> paused_total;  // ticks of the pauses that have ended
extern std::atomic<std::uint64_t> paused_since;  // when the current pause began; 0 while recording
}  // namespace recording_detail

// Ticks recording was off between the start of the run and `now`. A reader that races with a
// switch may be off by the length of that switch's pause once; durations derived from it are
// clamped at zero, never negative.
inline std::uint64_t paused_ticks(std::uint64_t now) noexcept {
  const std::uint64_t since = recording_detail::paused_since.load(std::memory_order_relaxed);
  const std::uint64_t total = recording_detail::paused_total.load(std::memory_order_relaxed);
  return since ? total + ticks_between(since, now) : total;
}

// The recorded part of the span from `begin` to `now`, where `paused_at_begin` is
// paused_ticks(begin): the wall-clock time less the time recording was off meanwhile.
inline std::uint64_t recorded_ticks(std::uint64_t begin, std::uint64_t paused_at_begin,
                                    std::uint64_t now) noexcept {
  const std::uint64_t elapsed = ticks_between(begin, now);
  const std::uint64_t paused = ticks_between(paused_at_begin, paused_ticks(now));
  return elapsed > paused ? elapsed - paused : 0;
}

// Sets the initial state when the runtime starts (PARPERF_START_PAUSED), at `now`.
void start_recording_switch(bool on, std::uint64_t now) noexcept;

// Switches recording on or off for the whole process; ignored once recording has ended.
void switch_recording(bool on) noexcept;

// Switches recording off for good (a program's request to end its tool): later switches are ignored.
void end_recording() noexcept;

}  // namespace parperf::runtime
