// An integer appended to a text as its decimal digits, with no format string to parse: the text
// writers (CSV, Chrome JSON) call it for every number of every event.
#pragma once

#include <fmt/format.h>

#include <string>

namespace parperf::exports {

template <class Integer>
void append_number(std::string& out, Integer value) {
  const fmt::format_int digits(value);
  out.append(digits.data(), digits.size());
}

}  // namespace parperf::exports
