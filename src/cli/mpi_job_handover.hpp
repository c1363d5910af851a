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

// Continues as parperf-report-mpi running `arguments` (the subcommand and its options, colour
// decided). With `processes` > 0: runs it under mpirun as a child whose output passes through this
// process (what no reader takes is dropped, so that mpirun never writes into a closed pipe), then
// ends as the job ended. Otherwise (one process of the user's job) replaces this process with it.
// Returns only by throwing, when it could not start it.
[[noreturn]] void hand_over_to_mpi_job(int processes, std::vector<std::string> arguments);

}  // namespace parperf::cli
