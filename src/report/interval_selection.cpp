#include "report/interval_selection.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace parperf::report {
namespace {

bool matches_any(const std::vector<std::string>& patterns, const std::string& name) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& pattern) { return glob_matches(pattern, name); });
}

void select(const analysis::IntervalTree& tree, std::size_t index, const IntervalFilter& filter,
            std::vector<SelectedInterval>& shown_siblings) {
  const analysis::MergedInterval& interval = tree.intervals[index];
  if (filter.max_level && interval.level > *filter.max_level) return;
  if (matches_any(filter.exclude, interval.identity.name)) return;
  bool shown = filter.include.empty() || matches_any(filter.include, interval.identity.name);
  std::vector<SelectedInterval>* children_go_to = &shown_siblings;
  if (shown) {
    shown_siblings.push_back(SelectedInterval{index, {}});
    children_go_to = &shown_siblings.back().children;
  }
  for (std::size_t child : interval.children) select(tree, child, filter, *children_go_to);
}

}  // namespace

std::vector<SelectedInterval> select_intervals(const analysis::IntervalTree& tree,
                                               const IntervalFilter& filter) {
  std::vector<SelectedInterval> roots;
  if (!tree.intervals.empty()) select(tree, 0, filter, roots);
  return roots;
}

bool glob_matches(std::string_view pattern, std::string_view name) {
  // fnmatch wants NUL-terminated strings; without FNM_PATHNAME a '*' also spans '/'.
  return fnmatch(std::string(pattern).c_str(), std::string(name).c_str(), 0) == 0;
}

std::vector<std::string> split_names(std::string_view list) {
  std::vector<std::string> names;
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) names.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return names;
}

}  // namespace parperf::report
