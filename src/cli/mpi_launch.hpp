// MPI runs from the launcher's side: whether the program uses MPI (then the PMPI wrappers are
// preloaded with the runtime), whether this parperf is one rank of an MPI job (then rank 0 alone
// writes run.json), and `parperf run --np N`, which starts the job itself.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::cli {

// What the MPI launchers (Open MPI, PMIx, MPICH/Hydra, Slurm) tell a process about its job.
struct MpiJob {
  bool is_rank = false;  // this process was started by an MPI launcher
  std::int64_t rank = 0;
  std::int64_t size = 1;
  std::string job_id;  // the same in every rank of the job; empty when the launcher gives none
};

// `variable` → value, null when unset (getenv in the program, a fixed table in tests).
using Getenv = const char* (*)(const char* variable);
MpiJob mpi_job_from_environment(Getenv getenv);
// The same from this process's own environment.
MpiJob mpi_job_of_this_process();

// Whether `program` (a resolved path) names a library whose file name begins with `prefix` among its
// DT_NEEDED entries.
bool needs_library_named(const std::filesystem::path& program, std::string_view prefix);

// Whether `program` (a resolved path) names an MPI library among its DT_NEEDED entries: libmpi*
// (Open MPI, MPICH, Intel MPI; Open MPI's Fortran bindings libmpi_mpifh / libmpi_usempif08 too).
bool links_mpi(const std::filesystem::path& program);

// libparperf-mpi.so beside the runtime library; throws std::runtime_error naming the path when absent.
std::filesystem::path find_mpi_collector_library(const std::filesystem::path& runtime_library);

// The default run directory name of one job: every rank must compute the same, so the job id
// replaces the time (ranks start in different seconds).
std::string job_directory_name(const std::string& program, const std::string& job_id);

// The launcher `--np` starts: $PARPERF_MPIRUN, else mpirun (in PATH).
std::string configured_mpirun();

// `mpirun -np N [--oversubscribe]`: the start of a command that runs N processes. Open MPI's mpirun
// gets --oversubscribe: more ranks than cores is what a laptop or a test asks for.
std::vector<std::string> launcher_prefix(const std::string& mpirun, bool open_mpi, int processes);

// `mpirun -np N [--oversubscribe] <parperf> run <inner arguments> -- program args`: the command
// `parperf run --np N` executes. $PARPERF_MPIRUN names the launcher (default: mpirun in PATH).
// Open MPI's mpirun gets --oversubscribe: more ranks than cores is what a laptop or a test asks for.
std::vector<std::string> launcher_command(const std::string& mpirun, bool open_mpi, int processes,
                                          const std::filesystem::path& parperf,
                                          const std::vector<std::string>& inner_arguments,
                                          const std::vector<std::string>& program);

// The first line `launcher --version` prints ("mpirun (Open MPI) 4.1.4"); "" when it prints none.
std::string version_line(const std::string& launcher);

// Whether `mpirun` (a name or path) is Open MPI's (its --version output says so).
bool is_open_mpi_launcher(const std::string& mpirun);

}  // namespace parperf::cli
