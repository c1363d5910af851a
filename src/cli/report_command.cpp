// `parperf report DIR`: the efficiency report of a run directory, as a text protocol or JSON.
// Loads the run, analyses it (analysis/analysis.hpp), builds the report and prints it; every problem ends the
// command with one line "parperf: <problem>" on stderr and exit status 1.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "analysis/analysis.hpp"
#include "analysis/locality/locality_ranks.hpp"
#include "analysis/run_loader.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "cli/commands.hpp"
#include "format/locality_file.hpp"
#include "format/profile_files.hpp"
#include "report/json_report.hpp"
#include "report/locality/locality_json.hpp"
#include "report/locality/locality_ranks.hpp"
#include "report/locality/locality_text.hpp"
#include "report/printable_text.hpp"
#include "report/processor_list.hpp"
#include "report/report_builder.hpp"
#include "report/text_protocol.hpp"
#include "report/wait_states_report.hpp"

namespace parperf::cli {
namespace {

struct ReportCommandOptions {
  std::string directory;
  std::optional<unsigned> level;
  std::string intervals;
  std::string exclude;
  std::string procs;
  bool per_proc = false;
  std::string unit;
  std::optional<std::int64_t> rank;
  bool json = false;
  bool partial = false;
};

report::ReportOptions report_options(const ReportCommandOptions& o) {
  report::ReportOptions options;
  if (o.level) options.filter.max_level = *o.level;
  options.filter.include = report::split_names(o.intervals);
  options.filter.exclude = report::split_names(o.exclude);
  if (!o.procs.empty()) options.per_processor = report::parse_processor_list(o.procs);
  if (o.per_proc) options.per_processor = report::ProcessorSelection{};
  return options;
}

analysis::AnalysisOptions analysis_options(const ReportCommandOptions& o) {
  analysis::AnalysisOptions options;
  if (!o.unit.empty()) options.unit = analysis::parse_unit(o.unit);
  options.rank = o.rank;
  return options;
}

nlohmann::ordered_json stored_locality_json(const format::StoredLocality& stored) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  if (stored.single) json["locality"] = report::locality_json(*stored.single);
  if (!stored.ranks.empty())
    json["locality_by_rank"] =
        report::locality_ranks_json(stored.ranks, locality::compare_ranks(stored.ranks));
  return json;
}

std::string stored_locality_text(const format::StoredLocality& stored, const std::string& directory) {
  std::string text;
  if (stored.single) text += report::locality_text(*stored.single);
  if (!stored.ranks.empty()) {
    if (!text.empty()) text += "\n";
    text += report::locality_ranks_text(stored.ranks, locality::compare_ranks(stored.ranks), directory);
  }
  return text;
}

void run_report(const ReportCommandOptions& o) {
  const report::ReportOptions options = report_options(o);  // option errors before the (slower) load
  const format::StoredLocality locality = format::read_stored_locality(o.directory);
  if (!locality.empty() &&
      format::find_profiles(o.directory).empty()) {  // a `parperf locality` run directory
    if (o.json) {
      fmt::print("{}\n", stored_locality_json(locality).dump(2));
    } else {
      fmt::print("{}", stored_locality_text(locality, o.directory));
    }
    return;
  }
  const analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
  const report::Report built =
      report::build_report(run, analysis::analyze(run, analysis_options(o)), options);
  // A run recorded with --trace: the wait states only its event trace can show.
  std::optional<analysis::TraceAnalysis> traced;
  if (analysis::has_traces(run.directory)) traced = analysis::analyse_traces(analysis::load_traces(run));
  if (o.json) {
    if (!locality.empty() || traced) {
      auto json = nlohmann::ordered_json::parse(report::render_json_text(built));
      const nlohmann::ordered_json stored = stored_locality_json(locality);
      for (const auto& [key, value] : stored.items()) json[key] = value;
      if (traced) json["wait_states"] = report::wait_states_json(*traced);
      fmt::print("{}\n", json.dump(2));
    } else {
      fmt::print("{}\n", report::render_json_text(built));
    }
  } else {
    fmt::print("{}", report::render_text(built));
    if (traced) fmt::print("\n{}", report::wait_states_text(*traced));
    if (!locality.empty()) fmt::print("\n{}", stored_locality_text(locality, o.directory));
  }
  std::fflush(stdout);
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportCommandOptions>();
  auto* report = app.add_subcommand("report", "Print the efficiency report of a run directory");
  report->add_option("DIR", o->directory, "Run directory written by `parperf run`")->required();
  report->add_option("--level", o->level, "Show intervals down to nesting level N (the program is level 0)");
  report->add_option("--intervals", o->intervals,
                     "Show only intervals whose names match these comma-separated globs, at any level");
  report->add_option(
      "--exclude", o->exclude,
      "Leave out intervals whose names match these comma-separated globs, with their subtrees");
  auto* procs = report->add_option("--procs", o->procs,
                                   "Per-processor characteristics for these processors, e.g. 0,2-3");
  auto* per_proc =
      report->add_flag("--per-proc", o->per_proc, "Per-processor characteristics for all processors");
  procs->excludes(per_proc);
  report
      ->add_option("--unit", o->unit,
                   "What a processor is: a process (rank) or a thread; default: rank when the run has "
                   "several processes, else thread")
      ->check(CLI::IsMember({"rank", "thread"}));
  auto* rank = report->add_option(
      "--rank", o->rank, "Only this rank: the OpenMP view of one process, its threads being the processors");
  rank->check(CLI::NonNegativeNumber);
  rank->excludes(report->get_option("--unit"));
  report->add_flag("--json", o->json, "Print the report as JSON (times in seconds)");
  report->add_flag("--partial", o->partial,
                   "Report what can be read when profile files are missing or damaged (with warnings)");

  report->callback([o] {
    try {
      run_report(*o);
    } catch (const CLI::Error&) {
      throw;
    } catch (const std::exception& e) {  // LoadError, a bad --procs list, anything unexpected
      // Messages can quote names from the files (site names of an impossible value).
      fmt::print(stderr, "parperf: {}\n", report::printable(e.what()));
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace parperf::cli
