// The `parperf` command's command line: every subcommand registered on one CLI11 application. The
// command (main.cpp) parses with it; the manual generator (manual_main.cpp) writes the man pages and
// the bash completion from it, so that they say what the command accepts.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace parperf::cli {

std::unique_ptr<CLI::App> make_application();

// Parses the command line and runs its subcommand; returns the exit status. Every error a command
// throws is printed as "parperf: <what>" on stderr (status 1; a usage error 2), as the command's
// main() and the tests that run commands in the process see them.
int run_command_line(int argc, char** argv);

}  // namespace parperf::cli
