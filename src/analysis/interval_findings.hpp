// The main finding of last resort: when no SRC point, loop or serial section explains what the
// program loses (annotated code whose processors finish at different times has no synchronization
// point the collectors see), the intervals that lose most are named, each with its own largest loss.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/findings.hpp"

namespace parperf::analysis {

// `findings`: the run's main findings so far. Returns the interval_loss findings to add, worst first:
// at most 3 intervals, each losing at least kIntervalWorthSaying of the program's Total time, the
// deepest that do: an interval whose child holds at least half its loss gives way to the child. A
// child losing less than half its parent's loss is named beside it, as a loss of its own (two threads
// late in turn in two phases leave the program's own idle time unexplained by either). None when a
// finding already names an SRC point, a loop or a serial section.
std::vector<Finding> interval_loss_findings(const IntervalTree& tree,
                                            const std::vector<IntervalAnalysis>& intervals,
                                            const std::vector<Finding>& findings);

}  // namespace parperf::analysis
