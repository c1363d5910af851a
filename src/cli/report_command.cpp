// `parperf report DIR`: the efficiency report of a run directory, as a text protocol or JSON.
// Loads the run, merges its interval trees, attributes the MPI and OpenMP measurements, builds the
// report and prints it; every problem ends the command with one line "parperf: <problem>" on stderr
// and exit status 1.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "analysis/interval_tree.hpp"
#include "analysis/mpi_attribution.hpp"
#include "analysis/openmp_attribution.hpp"
#include "analysis/processors.hpp"
#include "analysis/run_loader.hpp"
#include "analysis/site_resolution.hpp"
#include "cli/commands.hpp"
#include "cli/run_info.hpp"
#include "report/json_report.hpp"
#include "report/locality/locality_json.hpp"
#include "report/locality/locality_text.hpp"
#include "report/processor_list.hpp"
#include "report/report_builder.hpp"
#include "report/text_protocol.hpp"

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
  if (!o.unit.empty()) options.unit = analysis::parse_unit(o.unit);
  options.rank = o.rank;
  return options;
}

// The memory locality `parperf locality` stored in the run directory, if it did.
std::optional<report::LocalityResult> stored_locality(const std::string& directory) {
  const auto path = std::filesystem::path(directory) / "locality.json";
  std::ifstream in(path);
  if (!in) return std::nullopt;
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", path.string(), e.what()));
  }
  return report::locality_from_json(json, path.string());
}

void run_report(const ReportCommandOptions& o) {
  report::ReportOptions options = report_options(o);  // option errors before the (slower) load
  const auto locality = stored_locality(o.directory);
  if (locality && find_profiles(o.directory).empty()) {  // a `parperf locality` run directory
    if (o.json) {
      fmt::print("{}\n", nlohmann::ordered_json{{"locality", report::locality_json(*locality)}}.dump(2));
    } else {
      fmt::print("{}", report::locality_text(*locality));
    }
    return;
  }
  analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
  analysis::resolve_code_sites(run);
  analysis::IntervalTree tree = analysis::build_interval_tree(run.profiles);
  // MPI first: it puts each interval's own figures in place, which the OpenMP pass then sums up.
  const analysis::MpiAnalysis mpi = analysis::analyze_mpi(tree, run.profiles);
  analysis::attribute_openmp(tree);
  report::Report built = report::build_report(run, tree, options, mpi);
  if (o.json) {
    if (locality) {
      auto json = nlohmann::ordered_json::parse(report::render_json_text(built));
      json["locality"] = report::locality_json(*locality);
      fmt::print("{}\n", json.dump(2));
    } else {
      fmt::print("{}\n", report::render_json_text(built));
    }
  } else {
    fmt::print("{}", report::render_text(built));
    if (locality) fmt::print("\n{}", report::locality_text(*locality));
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
      fmt::print(stderr, "parperf: {}\n", e.what());
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace parperf::cli
