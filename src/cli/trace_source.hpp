// Where `parperf report` and `parperf whatif` get a traced run's analysis from: the event traces read
// and analysed by this process (the default), or by the processes of an MPI job together
// (parperf-report-mpi, report_mpi_main.cpp): each analysing its part of the run with the others
// (trace_parts_analysis.hpp), or, for what cannot yet be analysed by parts, the first alone. Only the
// job's first process prints.
#pragma once

#include <functional>
#include <optional>

#include "analysis/run_data.hpp"
#include "analysis/site_table.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::cli {

// A traced run as the processes of an analysis job have it.
struct TracedRun {
  // Every process holds the run's analysis, and its replays (what_if, the findings' replayed gains)
  // are made by all of them together, in the same order; otherwise the first process analyses
  // `traces` itself, and the others have nothing to do.
  bool by_parts = false;
  std::optional<analysis::TraceRun> traces;  // to be analysed by this process
  std::optional<analysis::TraceAnalysis> analysis;
};

struct TraceSource {
  // Set by parperf-report-mpi: the run's analysis made by the job (`sites`, where symbolization put the
  // code sites). Unset: load_traces, and the analysis, here.
  std::function<TracedRun(const analysis::RunData& run, const analysis::SiteTable& sites)> analyse;
  bool prints = true;   // whether this process prints the report
  bool shared = false;  // set by parperf-report-mpi: this process is already one of an analysis job
};

// The process-wide choice (the command is one process with one report).
TraceSource& trace_source();

}  // namespace parperf::cli
