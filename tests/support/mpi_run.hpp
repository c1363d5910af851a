// Running MPI programs from tests (Open MPI): under plain `mpirun`, under `mpirun ... parperf run`
// (every rank measured by its own parperf) and under `parperf run --np N` (parperf starts mpirun).
//
// Every launch adds what Open MPI needs here to the child's environment (running as root is allowed,
// OMPI_ALLOW_RUN_AS_ROOT and its confirmation), passes --oversubscribe (more ranks than the 2 cores),
// and forwards the variables of `options.env` to the ranks (mpirun -x; local ranks inherit them
// anyway). A launch that outlives `options.timeout_seconds` is killed whole: mpirun puts each rank in
// a process group of its own, so the ranks are found as descendants of the test, which is made a
// child subreaper on the first launch so that ranks orphaned by a dead mpirun come to it rather than
// to init (and are reaped after each launch). A hung MPI job never hangs ctest.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace parperf::test {

// How long an MPI launch may take unless a test says otherwise: the programs take about a second.
inline constexpr double kMpiTimeoutSeconds = 30;

std::filesystem::path mpirun_command();  // found at configure time (cmake/mpi_programs.cmake)

// `mpirun --oversubscribe -np <ranks> <program...>`, nothing measured.
ProcessResult mpi_run(int ranks, const std::vector<std::string>& program, ProcessOptions options = {});

// `mpirun --oversubscribe -np <ranks> parperf run -q -o <run_directory> -- <program...>`: each rank
// writes <run_directory>/profile.<rank>.ppf.
ProcessResult mpi_measure(int ranks, const std::filesystem::path& run_directory,
                          const std::vector<std::string>& program, ProcessOptions options = {});

// `parperf run -q --np <ranks> -o <run_directory> -- <program...>`: parperf launches mpirun itself.
ProcessResult parperf_run_np(int ranks, const std::filesystem::path& run_directory,
                             const std::vector<std::string>& program, ProcessOptions options = {});

// The same with `parperf run` options before the program ("--trace", ...).
ProcessResult parperf_run_np_with(int ranks, const std::filesystem::path& run_directory,
                                  const std::vector<std::string>& run_options,
                                  const std::vector<std::string>& program, ProcessOptions options = {});

// Any command that starts MPI jobs itself (`parperf run --np --sweep ...`), with what they need here.
ProcessResult launch_mpi_command(const std::vector<std::string>& argv, ProcessOptions options = {});

// The mpirun command line that mpi_run runs (mpi_measure puts `parperf run ...` before the program).
std::vector<std::string> mpi_run_command(int ranks, const std::vector<std::string>& program,
                                         const ProcessOptions& options);

}  // namespace parperf::test
