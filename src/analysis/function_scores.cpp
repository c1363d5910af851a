#include "analysis/function_scores.hpp"

#include <algorithm>
#include <map>

#include "format/site_kinds.hpp"

namespace parperf::analysis {
namespace {

constexpr auto kFunction = static_cast<std::uint32_t>(format::SiteKind::function);

struct Totals {
  const IntervalIdentity* identity = nullptr;
  std::uint64_t calls = 0;
  std::uint64_t ns = 0;
};

// True when an interval above `index` is the same function (a recursive call): its time is
// already inside the outer call's.
bool nested_in_itself(const IntervalTree& tree, std::size_t index) {
  const std::string& name = tree.intervals[index].identity.name;
  for (std::size_t i = tree.intervals[index].parent; i != 0; i = tree.intervals[i].parent) {
    const IntervalIdentity& above = tree.intervals[i].identity;
    if (above.kind == kFunction && above.name == name) return true;
  }
  return false;
}

}  // namespace

FunctionScoring score_functions(const IntervalTree& tree, const FunctionScoreOptions& options) {
  FunctionScoring scoring;
  scoring.options = options;
  scoring.probe_ns = options.probe_ns;
  std::map<std::string, Totals> by_name;
  for (std::size_t i = 0; i < tree.intervals.size(); ++i) {
    const MergedInterval& interval = tree.intervals[i];
    if (i == 0) {
      for (const LocationStats& l : interval.locations)
        scoring.program_seconds += 1e-9 * static_cast<double>(l.exec_ns());
      continue;
    }
    if (interval.identity.kind != kFunction) continue;
    Totals& totals = by_name[interval.identity.name];
    if (!totals.identity) totals.identity = &interval.identity;
    const bool recursive = nested_in_itself(tree, i);
    for (const LocationStats& l : interval.locations) {
      totals.calls += l.entries();
      if (!recursive) totals.ns += l.exec_ns();
    }
  }
  for (const auto& [name, totals] : by_name) {
    FunctionScore score{name, totals.identity->file, totals.identity->line, totals.calls,
                        1e-9 * static_cast<double>(totals.ns)};
    score.seconds_per_call = totals.calls ? score.seconds / static_cast<double>(totals.calls) : 0;
    score.overhead_seconds = static_cast<double>(totals.calls) * options.probe_ns * 1e-9;
    const bool kept = std::find(options.keep.begin(), options.keep.end(), name) != options.keep.end();
    score.exclude =
        !kept && totals.calls >= options.min_calls && score.seconds_per_call < options.max_seconds_per_call;
    if (score.exclude) scoring.excluded_overhead_seconds += score.overhead_seconds;
    scoring.functions.push_back(std::move(score));
  }
  std::sort(scoring.functions.begin(), scoring.functions.end(),
            [](const FunctionScore& a, const FunctionScore& b) {
              if (a.exclude != b.exclude) return a.exclude;
              if (a.overhead_seconds != b.overhead_seconds) return a.overhead_seconds > b.overhead_seconds;
              return a.name < b.name;
            });
  return scoring;
}

}  // namespace parperf::analysis
