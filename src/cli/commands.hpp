// The subcommands of the `parperf` command. Each registers itself on the application; its
// callback throws CLI::RuntimeError(exit_code) to end the command with a non-zero status.
#pragma once

namespace CLI {
class App;
}

namespace parperf::cli {

void add_run_command(CLI::App& app);        // run_command.cpp: run a program under the runtime
void add_report_command(CLI::App& app);     // report_command.cpp: the efficiency report
void add_locality_command(CLI::App& app);   // locality_command.cpp: memory locality scores
void add_compiler_commands(CLI::App& app);  // compiler_command.cpp: parperf cc / c++ / fortran
void add_filter_command(CLI::App& app);     // filter_command.cpp: parperf filter suggest
void add_export_command(CLI::App& app);     // export_command.cpp: timelines for Perfetto, OTF2...
void add_predict_command(CLI::App& app);    // predict_command.cpp: scalability prediction
void add_whatif_command(CLI::App& app);     // whatif_command.cpp: the trace replayed with changed costs
void add_diff_command(CLI::App& app);       // diff_command.cpp: two runs compared interval by interval

}  // namespace parperf::cli
