// `parperf filter suggest DIR`: a function filter proposed from a measured run of a program built
// with `parperf cc|c++|fortran --instrument=functions`. The run is analysed as `parperf report`
// does (its probe costs taken out of the times), its functions scored
// (analysis/function_scores.hpp) and the proposal written as a filter file
// (report/filter_suggestion.hpp), to stdout or -o FILE. Every problem ends the command with one
// line "parperf: <problem>" on stderr and exit status 1.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "analysis/analysis.hpp"
#include "analysis/function_scores.hpp"
#include "analysis/run_loader.hpp"
#include "cli/command_errors.hpp"
#include "cli/commands.hpp"
#include "cli/text_file.hpp"
#include "report/filter_suggestion.hpp"

namespace parperf::cli {
namespace {

struct SuggestOptions {
  std::string directory;
  std::string output;
  std::uint64_t min_calls = 100;
  double max_ns_per_call = 1000;
  double probe_ns = 0;  // 0: the run's own calibrated cost
};

void suggest(const SuggestOptions& o) {
  const analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{});
  const analysis::Analysis analyzed = analysis::analyze(run, analysis::AnalysisOptions{});
  analysis::FunctionScoreOptions options;
  options.min_calls = o.min_calls;
  options.max_seconds_per_call = o.max_ns_per_call * 1e-9;
  if (o.probe_ns > 0) {
    options.probe_ns = o.probe_ns;
  } else if (analyzed.probe_compensation.applied && analyzed.probe_compensation.entry_ns > 0) {
    options.probe_ns = analyzed.probe_compensation.entry_ns;
  }
  const analysis::FunctionScoring scoring = analysis::score_functions(analyzed.whole_run, options);
  if (scoring.functions.empty())
    throw std::runtime_error(
        fmt::format("{} has no instrumented functions (build the program with parperf cc|c++|fortran "
                    "--instrument=functions)",
                    o.directory));
  const std::string text = report::render_filter_suggestion(scoring, o.directory);
  if (o.output.empty()) {
    fmt::print("{}", text);
    std::fflush(stdout);
  } else {
    write_text_file(o.output, text);
  }
}

}  // namespace

void add_filter_command(CLI::App& app) {
  auto* filter = app.add_subcommand("filter", "Function filters for --instrument=functions");
  filter->require_subcommand(1);
  auto o = std::make_shared<SuggestOptions>();
  auto* suggest_command = filter->add_subcommand(
      "suggest",
      "Propose a function filter from a measured run: exclude functions called often for little time");
  suggest_command->add_option("DIR", o->directory, "The run directory")->required();
  suggest_command->add_option("-o,--output", o->output, "Write the filter to FILE instead of stdout")
      ->type_name("FILE");
  suggest_command
      ->add_option("--min-calls", o->min_calls, "Propose only functions called at least this often")
      ->capture_default_str();
  suggest_command
      ->add_option("--max-ns-per-call", o->max_ns_per_call,
                   "Propose functions whose calls take less than this on average (nanoseconds)")
      ->capture_default_str();
  suggest_command->add_option("--probe-ns", o->probe_ns,
                              "What one measured call costs (ns); default: the run's calibrated probe cost");
  suggest_command->callback([o] { report_errors_of([&] { suggest(*o); }); });
}

}  // namespace parperf::cli
