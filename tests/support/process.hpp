// Running a program from a test: fork and exec (no shell), with its output captured.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace parperf::test {

struct ProcessOptions {
  // Variables set (or replaced) in the program's environment. Inherited PARPERF_* variables are
  // always dropped, so a developer's own settings cannot change what a test measures.
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> unset_env;
  std::filesystem::path working_directory;  // empty: the test's own
  double timeout_seconds = 60;              // then the program's whole process group is killed
  // On timeout also kill every other descendant of the test process, whatever its process group
  // (mpirun starts each rank in a group of its own), and the test's own children (orphans come to
  // the test when it is a child subreaper, see mpi_run.hpp).
  bool kill_descendants = false;
};

struct ProcessResult {
  int exit_code = -1;  // when the program exited
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  std::string out;
  std::string err;
  double wall_seconds = 0;
};

// Runs argv (argv[0] searched in PATH) with stdin from /dev/null and waits for it.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// How the run ended and what it printed, for failure messages.
std::string describe(const ProcessResult& result);

// `text` split at newlines; a final newline does not start another line.
std::vector<std::string> lines_of(const std::string& text);

}  // namespace parperf::test
