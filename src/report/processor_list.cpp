#include "report/processor_list.hpp"

#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

namespace parperf::report {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool parse_number(std::string_view text, std::int64_t& number) {
  text = trim(text);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size() && number >= 0;
}

}  // namespace

bool ProcessorSelection::includes(std::int64_t processor) const {
  if (all) return true;
  for (auto [first, last] : ranges) {
    if (processor >= first && processor <= last) return true;
  }
  return false;
}

ProcessorSelection parse_processor_list(std::string_view list) {
  ProcessorSelection selection;
  selection.all = false;
  while (true) {
    std::size_t comma = list.find(',');
    std::string_view item = trim(list.substr(0, comma));
    std::size_t dash = item.find('-');
    std::int64_t first = 0, last = 0;
    bool ok = dash == std::string_view::npos
                  ? parse_number(item, first) && parse_number(item, last)
                  : parse_number(item.substr(0, dash), first) && parse_number(item.substr(dash + 1), last);
    if (!ok || first > last) {
      throw std::invalid_argument(
          fmt::format("--procs: '{}' is not a processor number or a range like 2-5", item));
    }
    selection.ranges.emplace_back(first, last);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return selection;
}

}  // namespace parperf::report
