// Where `parperf report` gets a traced run's event traces from: read by this process (the
// default), or shared out among the processes of an MPI job by parperf-report-mpi
// (report_mpi_main.cpp), each reading its share of the files; then only the job's first process
// prints the report.
#pragma once

#include <functional>
#include <optional>

#include "analysis/run_data.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::cli {

struct TraceSource {
  // The run's traces (as far as the analysis reads them); nothing when the run has none, or on a
  // process that does not print. Unset: load_traces here.
  std::function<std::optional<analysis::TraceRun>(const analysis::RunData& run)> load;
  bool prints = true;   // whether this process prints the report
  bool shared = false;  // set by parperf-report-mpi: this process is already one of an analysis job
};

// The process-wide choice (the command is one process with one report).
TraceSource& trace_source();

}  // namespace parperf::cli
