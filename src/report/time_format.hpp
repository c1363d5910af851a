// How reports write times.
#pragma once

#include <string>

namespace parperf::report {

// Seconds to the microsecond: 0.18 → "0.180000", 0.0000421 → "0.000042100" (to the nanosecond
// below 0.1 ms), 0 → "0". No unit.
std::string format_seconds(double seconds);

// For sentences: 0.12 → "120 ms", 2.5 → "2.50 s", 0.0000421 → "42.1 µs".
std::string format_duration(double seconds);

// 0.3333 → "33%", 0.004 → "0.4%".
std::string format_percent(double fraction);

}  // namespace parperf::report
