// A figure held as a double (a count, a time in nanoseconds) as the 64-bit integer it is, when it is
// one: what the reports and exports write as an integer. Nothing else is cast: a damaged file's 2e27
// ns or 1.8e19 entries is no int64_t, and casting it would be undefined (on x86 a negative figure).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace parperf::analysis {

inline std::optional<std::int64_t> whole_number(double value) {
  constexpr double kInt64Bound = 9223372036854775808.0;  // 2^63
  if (value == std::trunc(value) && value >= -kInt64Bound && value < kInt64Bound)
    return static_cast<std::int64_t>(value);
  return std::nullopt;
}

}  // namespace parperf::analysis
