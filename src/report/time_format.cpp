#include "report/time_format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace parperf::report {

namespace {
// Beyond this many seconds (about 30 years) no run was measured: such a figure comes from a what-if's
// extreme changes, and a fixed-point number of it would print hundreds of digits.
constexpr double kLongest = 1e9;
}  // namespace

std::string format_seconds(double seconds) {
  if (seconds == 0) return "0";
  if (!(std::fabs(seconds) < kLongest)) return fmt::format("{:.6g}", seconds);
  // Microseconds keep the decimal points of a column aligned; only values too small to show in
  // them get nanoseconds, the resolution of the measurements.
  return fmt::format("{:.{}f}", seconds, std::fabs(seconds) < 1e-4 ? 9 : 6);
}

std::string format_duration(double seconds) {
  double magnitude = std::fabs(seconds);
  if (!(magnitude < kLongest)) return fmt::format("{:.3g} s", seconds);
  if (magnitude >= 1) return fmt::format("{:.2f} s", seconds);
  if (magnitude >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  if (magnitude >= 1e-6) return fmt::format("{:.3g} µs", seconds * 1e6);
  return fmt::format("{:.0f} ns", seconds * 1e9);
}

std::string format_percent(double fraction) {
  double percent = fraction * 100;
  if (!(std::fabs(percent) < 1e6)) return fmt::format("{:.3g}%", percent);
  return std::fabs(percent) >= 1 ? fmt::format("{:.0f}%", percent) : fmt::format("{:.1f}%", percent);
}

}  // namespace parperf::report
