// Builds a Report from the analysed run (analysis/analysis.hpp): selects the intervals and
// processors to show and puts the findings into words. It computes no figure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/run_data.hpp"
#include "report/interval_selection.hpp"
#include "report/processor_list.hpp"
#include "report/report_model.hpp"

namespace parperf::report {

struct ReportOptions {
  IntervalFilter filter;                            // --level, --intervals, --exclude
  std::optional<ProcessorSelection> per_processor;  // --procs / --per-proc; absent: rows only in JSON
};

// `analysis` is analyze(run, ...).
Report build_report(const analysis::RunData& run, const analysis::Analysis& analysis,
                    const ReportOptions& options = {});

// Appends `findings` to the report's findings, and their words (src_summary.hpp) to its summary:
// what the command adds from results beside the profiles (locality.json's functions).
void add_findings(Report& report, const std::vector<analysis::Finding>& findings);

}  // namespace parperf::report
