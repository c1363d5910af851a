// The report's part on a traced run's wait states (analysis/trace/trace_analysis.hpp): the section
// "Wait states (from the event trace)" of the text report and the JSON report's `wait_states` key
// (docs/report.md).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/trace/trace_analysis.hpp"

namespace parperf::report {

// How many sites, waiting locations and causes the text lists per pattern (JSON has them all).
inline constexpr std::size_t kWaitRowsShown = 5;

std::string wait_states_text(const analysis::TraceAnalysis& analysis);

// {"ranks", "messages", "unmatched_sends", "unmatched_receives", "collectives",
//  "incomplete_collectives", "clock_check": {...}, "patterns": [...], "warnings": [...]}; times in seconds.
nlohmann::ordered_json wait_states_json(const analysis::TraceAnalysis& analysis);

}  // namespace parperf::report
