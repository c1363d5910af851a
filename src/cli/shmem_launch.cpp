#include "cli/shmem_launch.hpp"

#include <cstdlib>
#include <stdexcept>

#include "cli/mpi_launch.hpp"

namespace parperf::cli {

bool links_shmem(const std::filesystem::path& program) { return needs_library_named(program, "liboshmem"); }

std::filesystem::path find_shmem_collector_library(const std::filesystem::path& runtime_library) {
  auto library = runtime_library.parent_path() / "libparperf-shmem.so";
  std::error_code error;
  if (!std::filesystem::exists(library, error))
    throw std::runtime_error("the OpenSHMEM collector library " + library.string() +
                             " is missing (parperf was built without OpenSHMEM)");
  return library;
}

std::string configured_oshrun() {
  const char* configured = std::getenv("PARPERF_OSHRUN");
  return configured && *configured ? configured : "oshrun";
}

bool is_open_mpi_oshrun(const std::string& oshrun) {
  const std::string first = version_line(oshrun);  // "oshrun (OpenRTE) 4.1.4"
  return first.find("OpenRTE") != std::string::npos || first.find("Open MPI") != std::string::npos;
}

std::vector<std::string> oshrun_prefix(const std::string& oshrun, bool open_mpi, int processes) {
  std::vector<std::string> command = {oshrun, "-np", std::to_string(processes)};
  if (open_mpi) {
    command.emplace_back("--oversubscribe");
    command.insert(command.end(), {"--mca", "memory", "^patcher"});
  }
  return command;
}

}  // namespace parperf::cli
