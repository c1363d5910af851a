// Why a run takes its time, for the HTML page: the POP efficiency factors, the critical path and the
// root causes of waiting (analysis/trace/trace_analysis.hpp) as the page's data, which its script draws
// as tables. The figures and sentences are those of the text and JSON reports (dependency_report.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/trace/trace_analysis.hpp"

namespace parperf::report::html {

// pop_json: {"source": "trace"|"profile", the overall factors, "mpi"/"openmp" when traced and present,
// "needs_trace" when from the profile}.
nlohmann::ordered_json pop_section(const analysis::PopFactors& profile, const analysis::Pop* traced);

// critical_path_json (each interval with its "off_path", as the analysis judged it) with each location's
// "name" (location_label) and the clock repair sentence.
nlohmann::ordered_json critical_path_section(const analysis::TraceAnalysis& analysis);

// {"waiting", "charged", "causes": [sentence...]} (delay_cause_sentences).
nlohmann::ordered_json delay_costs_section(const analysis::TraceAnalysis& analysis);

}  // namespace parperf::report::html
