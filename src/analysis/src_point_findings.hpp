// The rules for one SRC point among the run's main findings (findings.hpp): what kind of loss it is,
// on what evidence, and the remedy when one is known. Internal to the findings.
#pragma once

#include "analysis/findings.hpp"
#include "analysis/src_points.hpp"

namespace parperf::analysis {

// `finding` holds the point, its share of the program's Total time and its estimated gain; this sets
// its kind, remedy, evidence and the rank or processors it names.
void classify_src_point(Finding& finding, const SrcPoint& point);

}  // namespace parperf::analysis
