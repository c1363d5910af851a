// `parperf diff A B`: how run B differs from run A, interval by interval (the same program before
// and after a change, or at two processor counts). Both runs are loaded and analysed as `parperf
// report` does, compared (analysis/run_comparison.hpp) and rendered as text or JSON
// (report/diff_text.hpp, report/diff_json.hpp). Every problem ends the command with one line
// "parperf: <problem>" on stderr and exit status 1.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "analysis/analysis.hpp"
#include "analysis/run_comparison.hpp"
#include "analysis/run_loader.hpp"
#include "cli/command_errors.hpp"
#include "cli/commands.hpp"
#include "cli/text_file.hpp"
#include "report/diff_json.hpp"
#include "report/diff_text.hpp"
#include "report/html/diff_page.hpp"
#include "report/json_text.hpp"
#include "report/printable_text.hpp"

namespace parperf::cli {
namespace {

struct DiffCommandOptions {
  std::string directory_a;
  std::string directory_b;
  std::string unit;
  bool json = false;
  std::string html;  // --html FILE
  bool all = false;
  bool partial = false;
};

struct LoadedRun {
  analysis::RunData run;
  analysis::Analysis analyzed;
};

LoadedRun load_and_analyze(const std::string& directory, const DiffCommandOptions& o) {
  analysis::AnalysisOptions options;
  if (!o.unit.empty()) options.unit = analysis::parse_unit(o.unit);
  LoadedRun loaded{analysis::load_run(directory, analysis::LoadOptions{o.partial}), {}};
  loaded.analyzed = analysis::analyze(loaded.run, options);
  return loaded;
}

void run_diff(const DiffCommandOptions& o) {
  const LoadedRun a = load_and_analyze(o.directory_a, o);
  const LoadedRun b = load_and_analyze(o.directory_b, o);
  const analysis::RunComparison comparison = analysis::compare_runs(a.run, a.analyzed, b.run, b.analyzed);
  if (!o.html.empty()) {
    write_text_file(o.html, report::html::diff_page(comparison));
    fmt::print("parperf: wrote the HTML comparison {}\n", report::printable(o.html));
  } else if (o.json)
    fmt::print("{}\n", report::json_text(report::diff_json(comparison)));
  else
    fmt::print("{}", report::diff_text(comparison, report::DiffTextOptions{.all = o.all}));
  std::fflush(stdout);
}

}  // namespace

void add_diff_command(CLI::App& app) {
  auto o = std::make_shared<DiffCommandOptions>();
  auto* diff = app.add_subcommand(
      "diff",
      "Compare two runs of a program interval by interval (before/after a change, two processor counts)");
  diff->add_option("A", o->directory_a, "The run to compare against (before)")->required();
  diff->add_option("B", o->directory_b, "The run compared with it (after)")->required();
  diff->add_option("--unit", o->unit,
                   "What a processor is in both runs: a process (rank) or a thread; default: each run's own "
                   "(rank with several processes, else thread)")
      ->check(CLI::IsMember({"rank", "thread"}));
  auto* json = diff->add_flag("--json", o->json, "Print the comparison as JSON (times in seconds)");
  diff->add_option("--html", o->html, "Write the comparison as one self-contained HTML page")
      ->type_name("FILE")
      ->excludes(json);
  diff->add_flag("--all", o->all, "List every interval (the text lists the 25 largest changes)");
  diff->add_flag("--partial", o->partial,
                 "Compare what can be read when profile files are missing or damaged (with warnings)");
  diff->callback([o] { report_errors_of([&] { run_diff(*o); }); });
}

}  // namespace parperf::cli
