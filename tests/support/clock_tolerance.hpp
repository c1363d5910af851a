// Comparing parperf's durations with another clock. The runtime converts TSC ticks to nanoseconds
// with a rate calibrated over the run so far, and src/runtime/clock.cpp bounds that calibration's
// error at 0.05 %: a stretch that lasted t by CLOCK_MONOTONIC (a sleep, a busy-wait, a test's own
// stopwatch) may be reported up to 0.05 % shorter or longer. A bound without that allowance fails at
// random (a 6 ms busy-wait reported as 5.9994 ms); one allowing much more would hide a wrong
// conversion.
#pragma once

namespace parperf::test {

inline constexpr double kCalibrationError = 5e-4;

// The least parperf may report for what lasted at least `duration` by another clock.
constexpr double reported_at_least(double duration) { return duration * (1 - kCalibrationError); }

// The most parperf may report for what lasted at most `duration` by another clock.
constexpr double reported_at_most(double duration) { return duration * (1 + kCalibrationError); }

}  // namespace parperf::test
