// Parallel trace analysis: the trace files of a run shared out among the processes of an MPI job
// (MPI_COMM_WORLD of parperf-report-mpi). Process k reads the files k, k + K, k + 2K, ... (by rank),
// cuts each down to its operations (analysis/trace/operations_trace.hpp, the part the wait-state
// analysis reads) and sends them to process 0, which assembles the run's traces as load_traces
// would have and analyses them: the same numbers as a serial `parperf report`, with the reading and
// decoding of the traces, most of the work, done K ways.
#pragma once

#include <optional>

#include "analysis/run_data.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::cli {

// Collective over MPI_COMM_WORLD. On process 0 the run's traces (nothing when it has none); on the
// others nothing. A file that cannot be read is a LoadError on process 0, as it is for load_traces.
std::optional<analysis::TraceRun> load_traces_shared(const analysis::RunData& run);

}  // namespace parperf::cli
