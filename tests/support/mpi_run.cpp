#include "support/mpi_run.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>

#include <chrono>
#include <string_view>
#include <thread>

#include "support/artifacts.hpp"

namespace parperf::test {
namespace {

// Ranks orphaned by a dead mpirun become children of the test, so a timeout can still find them.
void become_subreaper() {
  static const bool done = [] {
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    return true;
  }();
  (void)done;
}

// Orphans that ended during the launch are the test's zombies now. After a timeout every
// descendant was sent SIGKILL: wait a little for them to go.
void reap_orphans(bool killed) {
  for (int round = 0; round < (killed ? 100 : 1); ++round) {
    pid_t pid = 0;
    while ((pid = waitpid(-1, nullptr, WNOHANG)) > 0) {
    }
    if (pid < 0) return;  // no child left
    if (killed) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

ProcessOptions with_mpi_environment(ProcessOptions options) {
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"OMPI_ALLOW_RUN_AS_ROOT", "1"},
           {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
           // --oversubscribe for the mpirun that `parperf run --np` starts as well.
           {"OMPI_MCA_rmaps_base_oversubscribe", "1"}}) {
    bool set = false;
    for (const auto& entry : options.env) set = set || entry.first == name;
    if (!set) options.env.emplace_back(name, value);
  }
  options.kill_descendants = true;
  return options;
}

ProcessResult launch(const std::vector<std::string>& argv, const ProcessOptions& options) {
  become_subreaper();
  auto result = run_process(argv, with_mpi_environment(options));
  reap_orphans(result.timed_out);
  return result;
}

}  // namespace

std::filesystem::path mpirun_command() { return PARPERF_TEST_MPIRUN; }

std::vector<std::string> mpi_run_command(int ranks, const std::vector<std::string>& program,
                                         const ProcessOptions& options) {
  std::vector<std::string> argv = {mpirun_command().string(), "--oversubscribe", "-np",
                                   std::to_string(ranks)};
  for (const auto& [name, value] : options.env) {
    if (!std::string_view(name).starts_with("OMPI_")) argv.insert(argv.end(), {"-x", name});
  }
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

ProcessResult launch_mpi_command(const std::vector<std::string>& argv, ProcessOptions options) {
  return launch(argv, options);
}

ProcessResult mpi_run(int ranks, const std::vector<std::string>& program, ProcessOptions options) {
  return launch(mpi_run_command(ranks, program, options), options);
}

ProcessResult mpi_measure(int ranks, const std::filesystem::path& run_directory,
                          const std::vector<std::string>& program, ProcessOptions options) {
  std::vector<std::string> measured = {parperf_command().string(), "run", "-q", "-o",
                                       run_directory.string(),     "--"};
  measured.insert(measured.end(), program.begin(), program.end());
  return launch(mpi_run_command(ranks, measured, options), options);
}

ProcessResult parperf_run_np(int ranks, const std::filesystem::path& run_directory,
                             const std::vector<std::string>& program, ProcessOptions options) {
  return parperf_run_np_with(ranks, run_directory, {}, program, std::move(options));
}

ProcessResult parperf_run_np_with(int ranks, const std::filesystem::path& run_directory,
                                  const std::vector<std::string>& run_options,
                                  const std::vector<std::string>& program, ProcessOptions options) {
  std::vector<std::string> argv = {
      parperf_command().string(), "run", "-q", "--np", std::to_string(ranks), "-o", run_directory.string()};
  argv.insert(argv.end(), run_options.begin(), run_options.end());
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return launch(argv, options);
}

}  // namespace parperf::test
