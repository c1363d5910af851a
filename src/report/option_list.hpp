// The comma-separated number lists that report options take (--procs 0,2-3; --thread 1,0:2;
// --rank 0,2): their items and their numbers, blanks around each ignored.
#pragma once

#include <charconv>
#include <string_view>
#include <type_traits>
#include <vector>

namespace parperf::report {

inline std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A whole non-negative number, blanks around it allowed; false for anything else.
template <class Number>
bool parse_count(std::string_view text, Number& number) {
  text = trim_blanks(text);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return false;
  if constexpr (std::is_signed_v<Number>) return number >= 0;
  return true;
}

// The items of `list`, blanks around them removed; at least one (an empty list has one empty item).
inline std::vector<std::string_view> list_items(std::string_view list) {
  std::vector<std::string_view> items;
  while (true) {
    const std::size_t comma = list.find(',');
    items.push_back(trim_blanks(list.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return items;
}

}  // namespace parperf::report
