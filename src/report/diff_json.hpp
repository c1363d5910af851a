// `parperf diff --json`: the comparison of two runs for other tools (and the HTML report): both runs'
// summaries, the program's change, and every interval of either run with both runs' figures, their
// change and its impact, in the comparison's order. Times in seconds, efficiency 0..1; the keys are
// documented in docs/report.md ("Comparing runs: parperf diff").
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/run_comparison.hpp"

namespace parperf::report {

nlohmann::ordered_json diff_json(const analysis::RunComparison& comparison);

}  // namespace parperf::report
