#include "cli/application.hpp"

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <exception>
#include <new>

#include "cli/commands.hpp"
#include "cli/trace_command.hpp"
#include "cli/usage_hints.hpp"

namespace parperf::cli {

std::unique_ptr<CLI::App> make_application() {
  auto application =
      std::make_unique<CLI::App>("parperf: measures where parallel programs lose their time", "parperf");
  CLI::App& app = *application;
  app.set_version_flag("--version", "parperf " PARPERF_VERSION_STRING);
  app.require_subcommand(1);
  add_run_command(app);
  add_report_command(app);
  add_trace_command(app);
  add_export_command(app);
  add_whatif_command(app);
  add_predict_command(app);
  add_diff_command(app);
  add_locality_command(app);
  add_compiler_commands(app);
  add_filter_command(app);
  return application;
}

int run_command_line(int argc, char** argv) {
  const auto application = make_application();
  CLI::App& app = *application;

  if (const auto message = unknown_command_message(app, argc, argv)) {
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
    const auto message = unknown_option_message(app);
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

}  // namespace parperf::cli
