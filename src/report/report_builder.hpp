// Builds a Report from the analysed run: selects intervals and computes their characteristics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/interval_tree.hpp"
#include "analysis/mpi_attribution.hpp"
#include "analysis/processors.hpp"
#include "analysis/run_data.hpp"
#include "report/interval_selection.hpp"
#include "report/processor_list.hpp"
#include "report/report_model.hpp"

namespace parperf::report {

struct ReportOptions {
  IntervalFilter filter;                            // --level, --intervals, --exclude
  std::optional<ProcessorSelection> per_processor;  // --procs / --per-proc; absent: rows only in JSON
  std::optional<analysis::Unit> unit;               // --unit; absent: analysis::default_unit
  // --rank: the view of one process, its threads being the processors (the unit is `thread`).
  std::optional<std::int64_t> rank;
};

// `tree` must have been built from `run.profiles` and attributed (analyze_mpi with `mpi`, then
// attribute_openmp). Throws std::invalid_argument when `options.rank` names a rank the run has no
// profile of.
Report build_report(const analysis::RunData& run, const analysis::IntervalTree& tree,
                    const ReportOptions& options, const analysis::MpiAnalysis& mpi = {});

}  // namespace parperf::report
