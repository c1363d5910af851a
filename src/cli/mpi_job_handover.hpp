// How `parperf report` and `parperf whatif` become an MPI job for their trace analysis: with `--np K`
// they start parperf-report-mpi (report_mpi_main.cpp) under mpirun, and as one process of a job the
// user's mpirun started they continue as parperf-report-mpi in place. There each process analyses its
// part of the traces with the others (trace_parts_analysis.hpp, through trace_source()) and process 0
// prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/run_data.hpp"

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

// Before `--np K` starts the job: the run's profiles loaded here, in one process, so that what every
// process would find wrong in them alike (no such directory, a damaged or missing profile) is said
// once in one line, not by the job followed by the launcher's notice of the job it aborted. The
// traces, which can be far larger than one process should read, are the job's. Returns the run for
// the command's own checks; none for a directory of `parperf locality` alone, which is the job's too.
std::optional<analysis::RunData> load_run_before_mpi_job(const std::string& directory, bool partial);

}  // namespace parperf::cli
