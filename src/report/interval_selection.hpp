// Which intervals a report shows: --level, --intervals and --exclude.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/interval_tree.hpp"

namespace parperf::report {

struct IntervalFilter {
  std::optional<std::uint32_t> max_level;  // program = level 0
  std::vector<std::string> include;        // globs on names; empty: every interval
  std::vector<std::string> exclude;        // globs on names; matches are dropped with their subtrees
};

// A shown interval and the shown intervals below it. When `include` hides an interval, its
// shown descendants move up to the nearest shown ancestor, keeping their pre-order.
struct SelectedInterval {
  std::size_t interval = 0;  // index in IntervalTree::intervals
  std::vector<SelectedInterval> children;
};

std::vector<SelectedInterval> select_intervals(const analysis::IntervalTree& tree,
                                               const IntervalFilter& filter);

// Shell-style glob: '*' any run of characters, '?' one character, '[...]' a set.
bool glob_matches(std::string_view pattern, std::string_view name);

// "solve*, init" → {"solve*", "init"}; empty items are dropped.
std::vector<std::string> split_names(std::string_view list);

}  // namespace parperf::report
