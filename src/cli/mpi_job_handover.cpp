#include "cli/mpi_job_handover.hpp"

#include <unistd.h>

#include <fmt/core.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "cli/mpi_launch.hpp"
#include "cli/trace_source.hpp"

namespace parperf::cli {

bool continues_as_mpi_job(int processes) {
  return !trace_source().shared && (processes > 0 || mpi_job_of_this_process().size > 1);
}

void hand_over_to_mpi_job(int processes, std::vector<std::string> arguments) {
  const auto analyser = std::filesystem::read_symlink("/proc/self/exe").parent_path() / "parperf-report-mpi";
  std::vector<std::string> command;
  if (processes > 0) {
    const std::string mpirun = configured_mpirun();
    const bool open_mpi = is_open_mpi_launcher(mpirun);
    command = launcher_prefix(mpirun, open_mpi, processes);
    // Open MPI binds each process to a core: the first, which analyses what the others read, would
    // then have one core for its threads (analysis_threads) while the others' cores stand idle.
    if (open_mpi) command.insert(command.end(), {"--bind-to", "none"});
  }
  command.push_back(analyser.string());
  for (std::string& argument : arguments) command.push_back(std::move(argument));
  std::vector<char*> argv;
  for (std::string& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  if (processes > 0)
    execvp(argv[0], argv.data());
  else
    execv(argv[0], argv.data());
  throw std::runtime_error(fmt::format("cannot start {}: {}", command.front(), std::strerror(errno)));
}

}  // namespace parperf::cli
