// The cores the measured program can run on, recorded in run.json (format::HostCores) so that the
// report can tell threads that waited for a core from threads that blocked.
#pragma once

#include <optional>

#include "format/run_info.hpp"

namespace parperf::cli {

// This host's online cores and the cores this process may run on (its CPU affinity, which the
// program it starts inherits); none when the system will not say.
std::optional<format::HostCores> host_cores();

// The threads a trace analysis of this process may use (analyse_traces): the cores it may run on,
// so that `taskset` or a job's binding (mpirun binds each process of `--np` to a core) bounds it.
unsigned analysis_threads();

}  // namespace parperf::cli
