#include "cli/application.hpp"

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/trace_command.hpp"

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

}  // namespace parperf::cli
