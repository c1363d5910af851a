// The machine-readable report (`parperf report --json`). Times in seconds, efficiency 0..1.
//
// {"parperf_report": 1, "run": {...}, "threads": [...], "summary": [...], "intervals": [<interval>...],
// "src_points": [...], "mpi": {"collectives": [...]}} where each <interval> carries its identity,
// its characteristics under the snake_case names of DESIGN.md section 4, a "comparative" object
// (one {"min", "min_processor", "max", "max_processor", "mean"} per per-processor figure),
// "per_processor" rows (always present, restricted by --procs), "iterations" (only with loop
// iteration marks), "events", "communication_classes" and "mpi_calls" (empty without MPI data),
// "diagnosis" and "children".
// "intervals" normally holds the program alone. With --intervals it holds the matching intervals
// that have no matching ancestor, each match nested under its nearest matching ancestor; "level"
// stays the interval's real nesting depth. "processes" and "threads" of "run" count what was
// analysed (with --partial, fewer than the run had; "warnings" says which are missing).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/report_model.hpp"

namespace parperf::report {

inline constexpr int kJsonReportVersion = 1;

// Keys keep the order above (ordered_json), so the output reads like the text protocol.
nlohmann::ordered_json render_json(const Report& report);

// render_json as indented text. Names come from the measured program and need not be valid
// UTF-8: invalid bytes become U+FFFD rather than failing the whole report.
std::string render_json_text(const Report& report);

// Parts of the layout, for the other renderers that show them (the HTML page): the "run" object,
// and one element of "src_points" (`program_total` is the base of its "lost_share").
nlohmann::ordered_json run_json(const RunSummary& run);
nlohmann::ordered_json src_point_json(const analysis::SrcPoint& point, double program_total);
nlohmann::ordered_json event_json(const analysis::EventTotals& event);  // one of an interval's "events"

}  // namespace parperf::report
