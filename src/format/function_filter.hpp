// The function filter of `parperf cc|c++|fortran --instrument=functions --filter FILE`
// (docs/instrumentation.md): which instrumented functions are measured. Defined once here because
// three readers share it: the compiler wrapper (which turns what it can into compiler options), the
// runtime's function hooks (which apply the rest to each function the first time it is entered)
// and `parperf filter suggest` (which writes such files).
//
// The file is lines of `include|exclude function|file GLOB`; blank lines and lines starting with #
// are ignored. A function is measured unless excluded; the LAST rule that matches it decides (its
// name for `function` rules, its source file for `file` rules), so a general exclusion can be
// followed by exceptions to it. Globs know `*` (any text, '/' and ':' included) and `?` (one
// character); every other character stands for itself.
//
// Header-only and allocation-free: the runtime links no C++ library and takes no memory from the
// program (docs/runtime.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace parperf::format {

enum class FilterAction : std::uint8_t { include, exclude };
enum class FilterTarget : std::uint8_t { function, file };

struct FilterRule {
  FilterAction action = FilterAction::include;
  FilterTarget target = FilterTarget::function;
  std::string_view pattern;  // a view into the filter's text
};

// One line of a filter file, parsed: a rule, nothing (blank or comment), or an error saying what is
// wrong with it.
struct FilterLine {
  enum class Status : std::uint8_t { rule, nothing, error };
  Status status = Status::nothing;
  FilterRule rule;
  std::string_view error;
};

namespace filter_detail {
constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
constexpr std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}
// The first word of `text` (which has no leading blanks), removed from it.
constexpr std::string_view take_word(std::string_view& text) {
  std::size_t end = 0;
  while (end < text.size() && !is_blank(text[end])) ++end;
  const std::string_view word = text.substr(0, end);
  text = trim(text.substr(end));
  return word;
}
}  // namespace filter_detail

// Parses one line (without its newline). The pattern is the rest of the line after the two words,
// trimmed: it may hold blanks ("(anonymous namespace)::f").
constexpr FilterLine parse_filter_line(std::string_view line) {
  using filter_detail::take_word;
  std::string_view rest = filter_detail::trim(line);
  if (rest.empty() || rest.front() == '#') return {};
  FilterLine parsed;
  parsed.status = FilterLine::Status::error;
  const std::string_view action = take_word(rest);
  if (action == "include") {
    parsed.rule.action = FilterAction::include;
  } else if (action == "exclude") {
    parsed.rule.action = FilterAction::exclude;
  } else {
    parsed.error = "a rule starts with 'include' or 'exclude'";
    return parsed;
  }
  const std::string_view target = take_word(rest);
  if (target == "function") {
    parsed.rule.target = FilterTarget::function;
  } else if (target == "file") {
    parsed.rule.target = FilterTarget::file;
  } else {
    parsed.error = "the second word of a rule is 'function' or 'file'";
    return parsed;
  }
  if (rest.empty()) {
    parsed.error = "the rule has no glob";
    return parsed;
  }
  parsed.rule.pattern = rest;
  parsed.status = FilterLine::Status::rule;
  return parsed;
}

// Calls `visit(line_number, FilterLine)` for every line of `text` (numbered from 1).
template <typename Visit>
constexpr void for_each_filter_line(std::string_view text, Visit&& visit) {
  int number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    visit(++number, parse_filter_line(line));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

// True when `text` matches `glob` as a whole. Iterative with one backtracking point (the last '*'),
// so the cost is at most |glob| x |text| and no recursion.
constexpr bool glob_matches(std::string_view glob, std::string_view text) {
  std::size_t g = 0, t = 0;
  std::size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      star_text = t;
    } else if (g < glob.size() && (glob[g] == '?' || glob[g] == text[t])) {
      ++g;
      ++t;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

// The decision of `rules` (in file order) for a function: excluded when the last rule that matches
// it is an exclusion. `file` may be empty when it is unknown; then file rules do not match.
template <typename Rules>
constexpr bool filter_excludes(const Rules& rules, std::string_view function, std::string_view file) {
  bool excluded = false;
  for (const FilterRule& rule : rules) {
    const std::string_view subject = rule.target == FilterTarget::function ? function : file;
    if (!subject.empty() && glob_matches(rule.pattern, subject))
      excluded = rule.action == FilterAction::exclude;
  }
  return excluded;
}

}  // namespace parperf::format
