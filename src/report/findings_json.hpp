// The run's main findings in the JSON report: the `findings` array, one object per finding with its
// stable rule key, its share and estimated gain, the same words as the text report, what it
// concerns and the numbers it judged by (docs/report.md, docs/diagnosis.md).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/findings.hpp"

namespace parperf::report {

// [{"rule", "share", "estimated_gain", "text", "interval", "location", "evidence", "remedy",
//   "sampled_cause", "replayed_gain", "replay"}...]; the last two null without a trace's replay.
nlohmann::ordered_json findings_json(const std::vector<analysis::Finding>& findings);

}  // namespace parperf::report
