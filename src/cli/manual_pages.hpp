// The man pages and the bash completion of the `parperf` command, written from its CLI11 definition
// (application.hpp) so that they never drift from what the command accepts: pure functions of the
// application, text out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace parperf::cli {

struct ManualPage {
  std::string file;  // "parperf-run.1"
  std::string text;  // roff (man(7) macros)
};

// One page for the command (parperf.1) and one for each visible subcommand, nested ones included
// (parperf-filter-suggest.1): name and description, synopsis, positionals, options with their
// arguments and defaults, the subcommands, the footer, and see-also links.
std::vector<ManualPage> manual_pages(const CLI::App& app, std::string_view version);

// A bash completion script (complete -F) for `app`: its subcommands, and each subcommand's own
// subcommands and options; file names where an argument is expected.
std::string bash_completion(const CLI::App& app);

}  // namespace parperf::cli
