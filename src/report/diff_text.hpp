// `parperf diff` as text: a header with both runs (directory, command, processors, execution time,
// efficiency, speedup, the lost-time components that changed most) and a table of the intervals,
// largest change first, one line each: the change of execution time, both times, the relative
// change (or "new", "vanished"), both efficiencies, the change of lost time with its largest part,
// and the interval's path. docs/report.md ("Comparing runs: parperf diff") shows an example.
#pragma once

#include <cstddef>
#include <string>

#include "analysis/run_comparison.hpp"

namespace parperf::report {

struct DiffTextOptions {
  std::size_t max_rows = 25;  // intervals listed; the rest are counted (`parperf diff --all` lists all)
  bool all = false;
};

std::string diff_text(const analysis::RunComparison& comparison, const DiffTextOptions& options = {});

}  // namespace parperf::report
