#include "cli/mpi_job_handover.hpp"

#include <unistd.h>

#include <fmt/core.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "cli/child_process.hpp"
#include "cli/mpi_launch.hpp"
#include "cli/trace_source.hpp"

extern char** environ;

namespace parperf::cli {

namespace {

// Copies the job's output from `from` to this process's standard output until the job closes it.
// When the reader of our output goes away (`parperf report --np 4 DIR | head`), the rest is read
// and dropped: mpirun itself must never write into a closed pipe, where Open MPI 4.1's launcher
// crashes in its SIGPIPE handling and prints a "Segmentation fault" with its stack instead of
// ending quietly. Returns whether the reader went away.
bool relay_output(int from) {
  bool reader_gone = false;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = read(from, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return reader_gone;
    for (ssize_t written = 0; !reader_gone && written < got;) {
      const ssize_t n = write(STDOUT_FILENO, buffer + written, static_cast<std::size_t>(got - written));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) reader_gone = true;  // EPIPE (SIGPIPE is ignored meanwhile), or another error
      written += n > 0 ? n : 0;
    }
  }
}

// `command` (mpirun and the job) as a child whose output passes through this process
// (relay_output), then ends this process as the job ended: with its exit status, its signal, or
// SIGPIPE's when the reader of the output went away.
[[noreturn]] void run_job_relaying_output(const std::vector<std::string>& command) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) environment.emplace_back(*entry);
  bool reader_gone = false;
  const ChildResult job = run_child(command, environment, nullptr, [&](int from) {
    std::signal(SIGPIPE, SIG_IGN);  // here, after the fork: the job keeps its own disposition
    reader_gone = relay_output(from);
  });
  if (job.exec_error != 0)
    throw std::runtime_error(
        fmt::format("cannot start {}: {}", command.front(), std::strerror(job.exec_error)));
  std::fflush(nullptr);
  const int signal = reader_gone ? SIGPIPE : job.signal.value_or(0);
  if (signal != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    std::_Exit(128 + signal);
  }
  std::_Exit(job.exit_code.value_or(1));
}

}  // namespace

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
  if (processes > 0) run_job_relaying_output(command);
  std::vector<char*> argv;
  for (std::string& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(argv[0], argv.data());
  throw std::runtime_error(fmt::format("cannot start {}: {}", command.front(), std::strerror(errno)));
}

}  // namespace parperf::cli
