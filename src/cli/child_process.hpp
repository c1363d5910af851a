// Running the measured program as a child process and waiting for it, the way system(3) does.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parperf::cli {

struct ChildResult {
  int pid = 0;                   // the program's process id
  int exec_error = 0;            // errno of the failed exec when the program never ran, else 0
  std::optional<int> exit_code;  // set when the program exited
  std::optional<int> signal;     // set when a signal ended it
};

// Forks and execs `argv` (argv[0] is searched in PATH) with `environment` ("NAME=value" entries)
// plus `pid_variable`=<the child's own pid> (none when null), then waits for it. With
// `read_output`, the child's standard output is a pipe whose read end read_output is given while the
// child runs (it reads to the end; the pipe is closed after it). While it waits, parperf passes
// SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGUSR1 and SIGUSR2 sent to it on to the program and lives on to
// finish the run directory (a launcher or batch system that terminates parperf still lets the runtime
// write its profile); those the terminal sends to the whole foreground group (Ctrl-C) reach the
// program directly and are not sent twice. The program gets SIGKILL when parperf dies (a parent-death
// signal): it is never left running alone. Throws std::system_error when fork or wait fails.
ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                      const char* pid_variable, const std::function<void(int)>& read_output = {});

}  // namespace parperf::cli
