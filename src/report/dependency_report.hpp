// The report's parts on why a traced run takes its time (analysis/trace/trace_analysis.hpp): the
// POP efficiency factors, the critical path, the root causes of waiting (delay costs) and the
// clock repair, as text sections and as the JSON report's `pop`, `critical_path`, `delay_costs`
// and `clock_repair` keys (docs/efficiency-model.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/trace/trace_analysis.hpp"

namespace parperf::report {

// The POP factors' table (without a title): from the trace when there is one, else the three a
// profile gives (the others named as needing --trace).
std::string pop_text(const analysis::PopFactors& overall, const analysis::Pop* traced);
nlohmann::ordered_json pop_json(const analysis::PopFactors& overall, const analysis::Pop* traced);

std::string critical_path_text(const analysis::TraceAnalysis& analysis);
nlohmann::ordered_json critical_path_json(const analysis::CriticalPath& path);

std::string delay_costs_text(const analysis::TraceAnalysis& analysis);
nlohmann::ordered_json delay_costs_json(const analysis::DelayCosts& delays);

nlohmann::ordered_json clock_repair_json(const analysis::ClockRepair& repair);
// One sentence: how many events the repair moved and how far, or none.
std::string clock_repair_sentence(const analysis::ClockRepair& repair);

// The largest causes (at most `count`, each at least 1 % of the waiting traced back to computation)
// as delay_cause_sentence words them, capitalised: "Rank 2's interval "compute" at solver.c:40 makes
// 5 other locations wait 3.10 s in all", for the text and HTML sections.
std::vector<std::string> delay_cause_sentences(const analysis::TraceAnalysis& analysis, std::size_t count);
// What the causes add up to, for the text and HTML sections: the waiting in all, how much of it was
// traced back to computation and, when not all, what the rest is. Empty when no location waited.
std::string delay_costs_summary(const analysis::TraceAnalysis& analysis);

// When the path's start-up is so large that no interval is judged off it
// (CriticalPath::startup_unexplained), the sentence that says so and why; else empty.
std::string unexplained_startup_sentence(const analysis::CriticalPath& path);

// Said under "Intervals on the path" when none is on it.
inline constexpr std::string_view kNoIntervalOnPath =
    "none: no interval is on it (the program has none, or the path runs outside them; the activities "
    "say what it runs through)";

}  // namespace parperf::report
