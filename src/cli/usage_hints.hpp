// Usage errors said in the user's terms: the command they probably meant when they mistyped one, and
// which option was not understood when CLI11 only lists what it did not expect ("-- --bogus").
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace parperf::cli {

// The name among `names` closest to `typed` (edit distance, at most 2 edits or a third of its
// length), when there is one.
std::optional<std::string> closest_name(const std::string& typed, const std::vector<std::string>& names);

// "unknown command 'reprot'; did you mean 'report'?" when argv[1] names no subcommand of `app` (and
// is not an option); nothing when it does.
std::optional<std::string> unknown_command_message(const CLI::App& app, int argc, const char* const* argv);

// "unknown option '--bogus' for 'parperf run' (see parperf run --help)" when the arguments CLI11 did not
// expect include an option; nothing otherwise.
std::optional<std::string> unknown_option_message(const CLI::App& app);

}  // namespace parperf::cli
