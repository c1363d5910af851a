// An integer appended to a text as its decimal digits, with no format string to parse: the text
// writers (CSV, Chrome JSON) call it for every number of every event.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>

namespace parperf::exports {

template <class Integer>
void append_number(std::string& out, Integer value) {
  const fmt::format_int digits(value);
  out.append(digits.data(), digits.size());
}

// A measured quantity (a counter's value) as an integer when it is a whole number that fits 64 bits;
// nothing else is cast (a damaged trace's 2e27 ns is no integer).
inline std::optional<std::int64_t> whole_number(double value) {
  constexpr double kInt64Bound = 9223372036854775808.0;  // 2^63
  if (value == std::trunc(value) && value >= -kInt64Bound && value < kInt64Bound)
    return static_cast<std::int64_t>(value);
  return std::nullopt;
}

// A measured quantity as JSON: its integer (whole_number), else its shortest decimal, null for what
// is no number.
inline void append_quantity(std::string& out, double value) {
  if (const auto whole = whole_number(value))
    append_number(out, *whole);
  else if (std::isfinite(value))
    fmt::format_to(std::back_inserter(out), "{}", value);
  else
    out += "null";
}

}  // namespace parperf::exports
