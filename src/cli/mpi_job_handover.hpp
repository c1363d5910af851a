// How `parperf report` and `parperf whatif` become an MPI job for their trace analysis: with `--np K`
// they start parperf-report-mpi (report_mpi_main.cpp) under mpirun, and as one process of a job the
// user's mpirun started they continue as parperf-report-mpi in place. There each process analyses its
// part of the traces with the others (trace_parts_analysis.hpp, through trace_source()) and process 0
// prints.
#pragma once

#include <string>
#include <vector>

namespace parperf::cli {

// Whether this command should continue as an MPI job: `--np` was given (`processes` > 0), or this
// process is one of several an mpirun started; never inside parperf-report-mpi itself.
bool continues_as_mpi_job(int processes);

// Replaces this process with parperf-report-mpi running `arguments` (the subcommand and its options,
// colour decided): under mpirun with `processes` when > 0, else itself (one process of the user's job).
// Returns only by throwing, when it could not start it.
[[noreturn]] void hand_over_to_mpi_job(int processes, std::vector<std::string> arguments);

}  // namespace parperf::cli
