// `parperf filter suggest`: the scored functions of a run (analysis/function_scores.hpp) as a
// function filter file (format/function_filter.hpp) that the compiler wrapper reads back, each
// rule with a comment giving the evidence for it.
#pragma once

#include <string>

#include "analysis/function_scores.hpp"

namespace parperf::report {

// The filter: a header saying where the figures come from and the criterion, one `exclude function`
// rule per proposed function (its calls, time per call and the measuring cost it saves), then the
// kept functions as comments, most costly first. `run` names the run directory in the header.
std::string render_filter_suggestion(const analysis::FunctionScoring& scoring, const std::string& run);

}  // namespace parperf::report
