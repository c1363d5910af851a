#include "report/printable_text.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace parperf::report {

std::string printable(std::string_view text) {
  const auto is_control = [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  };
  if (std::none_of(text.begin(), text.end(), is_control)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (is_control(c))
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

}  // namespace parperf::report
