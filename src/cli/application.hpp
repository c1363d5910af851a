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

}  // namespace parperf::cli
