// OpenSHMEM runs from the launcher's side: whether the program uses OpenSHMEM (then the PSHMEM
// wrappers are preloaded with the runtime), and the `oshrun` command `parperf run --np N` starts for
// such a program.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace parperf::cli {

// Whether `program` (a resolved path) names an OpenSHMEM library among its DT_NEEDED entries
// (Open MPI's liboshmem).
bool links_shmem(const std::filesystem::path& program);

// libparperf-shmem.so beside the runtime library; throws std::runtime_error naming the path when absent.
std::filesystem::path find_shmem_collector_library(const std::filesystem::path& runtime_library);

// The launcher `--np` starts for an OpenSHMEM program: $PARPERF_OSHRUN, else oshrun (in PATH).
std::string configured_oshrun();

// Whether `oshrun` (a name or path) is Open MPI's (its --version output names OpenRTE or Open MPI).
bool is_open_mpi_oshrun(const std::string& oshrun);

// `oshrun -np N [--oversubscribe --mca memory ^patcher]`: the start of a command that runs N PEs.
// Open MPI 4.1's oshrun gets --oversubscribe (more PEs than cores is what a laptop or a test asks
// for) and `--mca memory ^patcher`: without it every PE of a Debian 12 Open MPI 4.1.4 job dies with
// SIGSEGV inside shmem_finalize (the memory patcher calls back into UCX code that finalize has
// unloaded; docs/shmem.md). On the command line, not in the program's environment set by parperf.
std::vector<std::string> oshrun_prefix(const std::string& oshrun, bool open_mpi, int processes);

}  // namespace parperf::cli
