// The `parperf` command: parses the command line and hands over to a subcommand.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <exception>
#include <new>

#include "analysis/trace/analysis_heap.hpp"
#include "cli/application.hpp"
#include "cli/usage_hints.hpp"

int main(int argc, char** argv) {
  parperf::analysis::keep_freed_memory_for_reuse();  // report, whatif: the trace analysis reuses its memory
  const auto application = parperf::cli::make_application();
  CLI::App& app = *application;

  if (const auto message = parperf::cli::unknown_command_message(app, argc, argv)) {
    fmt::print(stderr, "parperf: {}\n", *message);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version: printed by CLI11
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {  // a subcommand ended with a status; it printed its own message
    return e.get_exit_code();
  } catch (const CLI::ExtrasError& e) {
    const auto message = parperf::cli::unknown_option_message(app);
    fmt::print(stderr, "parperf: {}\nRun 'parperf --help' for more information.\n",
               message.value_or(e.what()));
    return 2;
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "parperf: {}\nRun 'parperf --help' for more information.\n", e.what());
    return 2;                        // a usage error, as for most Unix commands
  } catch (const std::bad_alloc&) {  // "std::bad_alloc" would say nothing to the user
    fmt::print(stderr, "parperf: not enough memory for this command: run it where more memory is free\n");
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf: {}\n", e.what());
    return 1;
  }
  return 0;
}
