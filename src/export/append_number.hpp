// An integer appended to a text as its decimal digits, with no format string to parse: the text
// writers (CSV, Chrome JSON) call it for every number of every event.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <string>

#include "analysis/whole_number.hpp"

namespace parperf::exports {

template <class Integer>
void append_number(std::string& out, Integer value) {
  const fmt::format_int digits(value);
  out.append(digits.data(), digits.size());
}

// A measured quantity as JSON: its integer (analysis/whole_number.hpp), else its shortest decimal, null for
// what is no number.
inline void append_quantity(std::string& out, double value) {
  if (const auto whole = analysis::whole_number(value))
    append_number(out, *whole);
  else if (std::isfinite(value))
    fmt::format_to(std::back_inserter(out), "{}", value);
  else
    out += "null";
}

}  // namespace parperf::exports
