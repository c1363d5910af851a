#include "report/processor_list.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "report/option_list.hpp"

namespace parperf::report {

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
  for (std::string_view item : list_items(list)) {
    std::size_t dash = item.find('-');
    std::int64_t first = 0, last = 0;
    bool ok = dash == std::string_view::npos
                  ? parse_count(item, first) && parse_count(item, last)
                  : parse_count(item.substr(0, dash), first) && parse_count(item.substr(dash + 1), last);
    if (!ok || first > last) {
      throw std::invalid_argument(
          fmt::format("--procs: '{}' is not a processor number or a range like 2-5", item));
    }
    selection.ranges.emplace_back(first, last);
  }
  return selection;
}

}  // namespace parperf::report
