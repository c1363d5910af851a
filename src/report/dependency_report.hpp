// The report's parts on why a traced run takes its time (analysis/trace/trace_analysis.hpp): the
// POP efficiency factors, the critical path, the root causes of waiting (delay costs) and the
// clock repair, as text sections and as the JSON report's `pop`, `critical_path`, `delay_costs`
// and `clock_repair` keys (docs/efficiency-model.md).
#pragma once

#include <string>
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

// "Rank 2's 'compute' at solver.c:40 causes 3.1 s of waiting on 5 other ranks", for the findings.
std::vector<std::string> delay_cause_sentences(const analysis::TraceAnalysis& analysis, std::size_t count);

}  // namespace parperf::report
