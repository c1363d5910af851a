#include "report/time_format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace parperf::report {

std::string format_seconds(double seconds) {
  if (seconds == 0) return "0";
  // Microseconds keep the decimal points of a column aligned; only values too small to show in
  // them get nanoseconds, the resolution of the measurements.
  return fmt::format("{:.{}f}", seconds, std::fabs(seconds) < 1e-4 ? 9 : 6);
}

std::string format_duration(double seconds) {
  double magnitude = std::fabs(seconds);
  if (magnitude >= 1) return fmt::format("{:.2f} s", seconds);
  if (magnitude >= 1e-3) return fmt::format("{:.3g} ms", seconds * 1e3);
  if (magnitude >= 1e-6) return fmt::format("{:.3g} µs", seconds * 1e6);
  return fmt::format("{:.0f} ns", seconds * 1e9);
}

std::string format_percent(double fraction) {
  double percent = fraction * 100;
  return std::fabs(percent) >= 1 ? fmt::format("{:.0f}%", percent) : fmt::format("{:.1f}%", percent);
}

}  // namespace parperf::report
