// `parperf diff A B --html FILE`: the comparison of two runs as one self-contained page, drawn by the
// same script as the report (assets/report.js, its "diff" view) from the diff's JSON (diff_json.hpp).
#pragma once

#include <string>

#include "analysis/run_comparison.hpp"

namespace parperf::report::html {

std::string diff_page(const analysis::RunComparison& comparison);

}  // namespace parperf::report::html
