// `parperf report DIR`: the efficiency report of a run directory, as a text protocol or JSON.
// Loads the run, analyses it (analysis/analysis.hpp), builds the report and prints it; every problem ends the
// command with one line "parperf: <problem>" on stderr and exit status 1.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/core.h>

#include "analysis/analysis.hpp"
#include "analysis/locality/locality_ranks.hpp"
#include "analysis/locality_findings.hpp"
#include "analysis/run_loader.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/trace_findings.hpp"
#include "cli/command_errors.hpp"
#include "cli/commands.hpp"
#include "cli/host_cores.hpp"
#include "cli/html_report.hpp"
#include "cli/mpi_job_handover.hpp"
#include "cli/terminal_colour.hpp"
#include "cli/text_file.hpp"
#include "cli/trace_analysis_memory.hpp"
#include "cli/trace_source.hpp"
#include "format/locality_file.hpp"
#include "format/profile_files.hpp"
#include "report/csv_tables.hpp"
#include "report/dependency_report.hpp"
#include "report/graph_links.hpp"
#include "report/json_report.hpp"
#include "report/json_text.hpp"
#include "report/locality/locality_json.hpp"
#include "report/locality/locality_ranks.hpp"
#include "report/locality/locality_text.hpp"
#include "report/printable_text.hpp"
#include "report/processor_list.hpp"
#include "report/report_builder.hpp"
#include "report/sampled_functions.hpp"
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
  std::optional<double> balance_alpha;
  bool json = false;
  std::string html;             // --html FILE
  std::string csv;              // --csv DIR: the long-form tables (report/csv_tables.hpp)
  bool details = false;         // every interval's full protocol after the overview
  std::string rows;             // --rows N|all: the overview's table lengths; empty: their defaults
  std::string colour = "auto";  // --color
  bool partial = false;
  bool raw_times = false;  // --no-compensation
  int processes = 0;       // --np: analyse the traces as an MPI job of that many processes
  bool functions = false;  // --functions: the sampled functions per interval, after the report
  bool internals = false;  // --internals: the measured libraries' own functions below the calls into them
  bool folded = false;     // --folded: only the folded stacks of the samples
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

// --rows N|all; none for anything else.
std::optional<report::TableRows> table_rows(std::string_view rows) {
  if (rows == "all") return report::TableRows::all();
  std::size_t count = 0;
  const auto [end, error] = std::from_chars(rows.data(), rows.data() + rows.size(), count);
  if (error != std::errc() || end != rows.data() + rows.size() || count == 0) return std::nullopt;
  return report::TableRows::each(count);
}

// Asking for some intervals or for per-processor rows is asking for their details.
report::TextOptions text_options(const ReportCommandOptions& o) {
  report::TextOptions options;
  options.details = o.details || !o.intervals.empty() || !o.procs.empty() || o.per_proc;
  options.colour = colour_output(o.colour);
  if (!o.rows.empty()) options.rows = table_rows(o.rows).value();
  return options;
}

analysis::AnalysisOptions analysis_options(const ReportCommandOptions& o) {
  analysis::AnalysisOptions options;
  if (!o.unit.empty()) options.unit = analysis::parse_unit(o.unit);
  options.rank = o.rank;
  if (o.balance_alpha) options.balance_alpha = *o.balance_alpha;
  options.compensate_probes = !o.raw_times;
  options.library_internals = o.internals;
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

// The POP factors a profile gives: each processor's productive time in the program against its
// execution time.
analysis::PopFactors profile_pop(const report::Report& r) {
  if (r.intervals.empty()) return {};
  const report::ReportInterval& root = r.intervals.front();
  std::vector<double> useful;
  for (const analysis::ProcessorFigures& p : root.per_processor) useful.push_back(p.productive_time);
  return analysis::profile_pop_factors(useful, root.characteristics.execution_time);
}

// The options again, for the processes of a parallel analysis, with colour decided (`colour`).
std::vector<std::string> report_arguments(const ReportCommandOptions& o, bool colour) {
  std::vector<std::string> arguments = {"report"};
  if (o.level) arguments.insert(arguments.end(), {"--level", std::to_string(*o.level)});
  if (!o.intervals.empty()) arguments.insert(arguments.end(), {"--intervals", o.intervals});
  if (!o.exclude.empty()) arguments.insert(arguments.end(), {"--exclude", o.exclude});
  if (!o.procs.empty()) arguments.insert(arguments.end(), {"--procs", o.procs});
  if (o.per_proc) arguments.push_back("--per-proc");
  if (!o.unit.empty()) arguments.insert(arguments.end(), {"--unit", o.unit});
  if (o.rank) arguments.insert(arguments.end(), {"--rank", std::to_string(*o.rank)});
  if (o.balance_alpha)
    arguments.insert(arguments.end(), {"--balance-alpha", fmt::format("{}", *o.balance_alpha)});
  if (o.json) arguments.push_back("--json");
  if (!o.html.empty())
    arguments.insert(arguments.end(), {"--html", std::filesystem::absolute(o.html).string()});
  if (!o.csv.empty()) arguments.insert(arguments.end(), {"--csv", std::filesystem::absolute(o.csv).string()});
  if (o.details) arguments.push_back("--details");
  if (!o.rows.empty()) arguments.insert(arguments.end(), {"--rows", o.rows});
  arguments.push_back(colour ? "--color=always" : "--color=never");
  if (o.partial) arguments.push_back("--partial");
  if (o.raw_times) arguments.push_back("--no-compensation");
  if (o.functions) arguments.push_back("--functions");
  if (o.internals) arguments.push_back("--internals");
  if (o.folded) arguments.push_back("--folded");
  arguments.push_back(o.directory);
  return arguments;
}

// `parperf report --np K`, or a `parperf report` that is one process of an MPI job: the analysis
// continues as parperf-report-mpi (mpi_job_handover.hpp).
[[noreturn]] void hand_over_report(const ReportCommandOptions& o) {
  // Colour is decided where stdout is the user's: `--np` starts the job from here. A process that the
  // user's mpirun started writes through the launcher (Open MPI gives it a terminal of its own),
  // which says nothing of where the report ends up: there only --color=always colours.
  const bool colour = o.processes > 0 ? colour_output(o.colour) : o.colour == "always";
  hand_over_to_mpi_job(o.processes, report_arguments(o, colour));
}

void run_report(const ReportCommandOptions& o) {
  const format::StoredLocality locality = format::read_stored_locality(o.directory);
  const bool locality_only = !locality.empty() && format::find_profiles(o.directory).empty();
  if (continues_as_mpi_job(o.processes)) {
    // Before `--np K` starts the job: the run's profiles read here, in one process, so that what every
    // process would find wrong in them alike (no such directory, a damaged or missing profile) is said
    // once in one line, not by the job followed by the launcher's notice of the job it aborted. The
    // traces, which can be far larger than one process should read, are the job's.
    if (o.processes > 0 && !locality_only) analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
    hand_over_report(o);
  }
  const report::ReportOptions options = report_options(o);  // option errors before the (slower) load
  if (locality_only) {                                      // a `parperf locality` run directory
    if (!o.html.empty()) {
      report::Report only_locality;
      only_locality.run.directory = o.directory;
      write_html_report(o.html, HtmlReportInputs{.report = only_locality, .locality = &locality});
      fmt::print("parperf: wrote the HTML report {}\n", report::printable(o.html));
    } else if (o.json) {
      fmt::print("{}\n", report::json_text(stored_locality_json(locality)));
    } else {
      fmt::print("{}", stored_locality_text(locality, o.directory));
    }
    return;
  }
  const analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
  const analysis::Analysis analyzed = analysis::analyze(run, analysis_options(o));
  report::Report built = report::build_report(run, analyzed, options);
  // A run measured by `parperf locality` too: its functions' spatial locality is a finding.
  if (locality.single) report::add_findings(built, analysis::locality_findings(*locality.single));
  // A run recorded with --trace: the wait states only its event trace can show.
  const TraceSource& source = trace_source();
  std::optional<analysis::TraceRun> traces;
  std::optional<analysis::TraceAnalysis> traced;
  bool by_parts = false;  // every process of the job holds the analysis and replays with the others
  if (source.analyse) {
    TracedRun job = source.analyse(run, analyzed.sites);
    by_parts = job.by_parts;
    traces = std::move(job.traces);
    traced = std::move(job.analysis);
  } else if (analysis::has_traces(run.directory)) {
    traces = analysis::load_traces(run);
  }
  if (!source.prints && !by_parts) return;  // one process of a parallel analysis, not the first
  if (traces && !traced) {
    analysis::attach_sites(*traces, analyzed.sites);
    std::string note;
    traced = analyse_traces_within_memory(*traces, analysis_threads(), o.directory, note);
    if (!traced) {  // the profile's report, saying what the trace would add
      fmt::print(stderr, "parperf: warning: {}\n", note);
      built.run.warnings.push_back(note);
      traces.reset();
    }
  }
  if (traced) {
    // The findings name what caused the waiting, not only where it was waited, and what a replay of
    // the trace predicts removing a cause gains.
    std::vector<analysis::Finding> findings = built.findings;
    for (analysis::Finding& cause : analysis::delay_cause_findings(*traced, built.program_total_time, 3))
      findings.push_back(std::move(cause));
    analysis::add_replayed_gains(findings, *traced);
    built.findings.clear();
    built.summary.clear();
    report::add_findings(built, findings);
  }
  if (!source.prints) return;  // a part of an analysis by parts: its replays are made
  if (by_parts && !o.html.empty() && analysis::has_traces(run.directory)) {
    // The page's timeline shows every event, which no process of the analysis held whole.
    traces = analysis::load_traces(run);
    analysis::attach_sites(*traces, analyzed.sites);
  }
  const analysis::PopFactors profile_factors = profile_pop(built);
  const analysis::Pop* traced_pop = traced ? &traced->pop : nullptr;
  built.pop = profile_factors;
  if (traced) built.traced_pop = traced->pop;
  if (o.folded) {
    fmt::print("{}", report::folded_stacks_text(analyzed.samples));
    if (!analyzed.samples.sampled)
      fmt::print(stderr, "parperf: {} was not sampled (record it with `parperf run --sample`)\n",
                 o.directory);
    std::fflush(stdout);
    return;
  }
  if (!o.html.empty()) {
    write_html_report(
        o.html, HtmlReportInputs{&run, built, profile_factors, &analyzed.sites, traces ? &*traces : nullptr,
                                 traced ? &*traced : nullptr, &locality});
    fmt::print("parperf: wrote the HTML report {}\n", report::printable(o.html));
  } else if (o.json || !o.csv.empty()) {
    auto json = nlohmann::ordered_json::parse(report::render_json_text(built));
    const nlohmann::ordered_json stored = stored_locality_json(locality);
    for (const auto& [key, value] : stored.items()) json[key] = value;
    json["pop"] = report::pop_json(profile_factors, traced_pop);
    if (traced) {
      json["wait_states"] = report::wait_states_json(*traced);
      json["critical_path"] = report::critical_path_json(traced->critical_path);
      json["delay_costs"] = report::delay_costs_json(traced->delays);
      json["clock_repair"] = report::clock_repair_json(traced->repair);
      if (traced->graph) json["dependencies"] = report::dependencies_json(*traced->graph);
    }
    if (o.csv.empty()) {
      fmt::print("{}\n", report::json_text(json));
    } else {
      if (std::error_code error; !std::filesystem::create_directories(o.csv, error) && error)
        throw std::runtime_error(fmt::format("{}: cannot create the directory for the tables: {}",
                                             report::printable(o.csv), error.message()));
      for (const report::CsvTable& table : report::csv_tables(json))
        write_text_file(std::filesystem::path(o.csv) / table.file, table.text);
      fmt::print("parperf: wrote the report's tables (intervals, src_points, findings, pop .csv) into {}\n",
                 report::printable(o.csv));
    }
  } else {
    fmt::print("{}", report::render_text(built, text_options(o)));
    if (traced) {
      fmt::print("\n{}", report::critical_path_text(*traced));
      fmt::print("\n{}", report::delay_costs_text(*traced));
      fmt::print("\n{}", report::wait_states_text(*traced));
    }
    if (o.functions)
      fmt::print("\n{}", report::sampled_functions_text(built.samples, report::kSampledRows, built.findings));
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
                     "Show only intervals whose names match these comma-separated globs, at any level, with "
                     "their details");
  report->add_option(
      "--exclude", o->exclude,
      "Leave out intervals whose names match these comma-separated globs, with their subtrees");
  auto* procs = report->add_option(
      "--procs", o->procs, "Per-processor characteristics for these processors, e.g. 0,2-3, in the details");
  auto* per_proc = report->add_flag("--per-proc", o->per_proc,
                                    "Per-processor characteristics for all processors, in the details");
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
  report
      ->add_option("--balance-alpha", o->balance_alpha,
                   "Loop balance threshold: a loop is balanced when its balance degree D (the largest "
                   "distance of an iteration's time from the mean) is at most A x the mean; default 0.1")
      ->type_name("A")
      ->check(CLI::NonNegativeNumber);
  auto* json = report->add_flag("--json", o->json, "Print the report as JSON (times in seconds)");
  report
      ->add_option("--html", o->html,
                   "Write the report as one self-contained HTML page (opens offline in any browser)")
      ->type_name("FILE")
      ->excludes(json);
  report
      ->add_option("--csv", o->csv,
                   "Write the report as long-form CSV tables into DIR for pandas or R: intervals.csv "
                   "(interval x processor x figure), src_points.csv, findings.csv, pop.csv (docs/report.md)")
      ->type_name("DIR")
      ->excludes(json)
      ->excludes(report->get_option("--html"));
  report->add_flag("--details", o->details,
                   "After the overview, every interval's characteristics in full, and every table uncut");
  report
      ->add_option(
          "--rows", o->rows,
          "Cut the overview's tables at N rows, or `all`; default: 40 intervals, 10 rows of the others")
      ->type_name("N|all")
      ->check(CLI::Validator(
          [](const std::string& rows) {
            return table_rows(rows) ? std::string() : std::string("a positive number of rows, or all");
          },
          ""));
  report
      ->add_option("--color", o->colour,
                   "Colour the text report: auto (on a terminal, unless NO_COLOR is set), never, always")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(kColourModes), std::end(kColourModes))));
  report->add_flag("--functions", o->functions,
                   "After the report, per interval the sampled functions (self and inclusive samples, "
                   "file:line), call paths and each processor's top function (`parperf run --sample`)");
  report->add_flag("--internals", o->internals,
                   "Sampled call paths: keep MPI's and OpenSHMEM's own functions below the program's calls "
                   "into them (by default a wait in MPI_Recv is MPI_Recv's)");
  report
      ->add_flag("--folded", o->folded,
                 "Print only the sampled stacks, folded (\"interval;f;g 12\" lines), for flamegraph.pl or "
                 "speedscope")
      ->excludes(json);
  report->add_flag("--no-compensation", o->raw_times,
                   "Report times as measured, with the cost of parperf's own probes left in");
  report
      ->add_option(
          "--np", o->processes,
          "Analyse the event traces as an MPI job of N processes (mpirun -np N, or $PARPERF_MPIRUN), "
          "each holding the part of the run its ranks make; the same report as without")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 20));
  report->add_flag("--partial", o->partial,
                   "Report what can be read when profile files are missing or damaged (with warnings)");

  // A second directory is a comparison, which is `parperf diff`'s: say so rather than "not expected".
  auto more = std::make_shared<std::vector<std::string>>();
  report->add_option("MORE", *more)->group("");
  report->callback([o, more] {
    if (!more->empty())
      throw CLI::ValidationError(
          fmt::format("parperf report reads one run directory; to compare two runs, use: parperf diff {} {}",
                      report::printable(o->directory), report::printable(more->front())));
    report_errors_of([&] { run_report(*o); });
  });
}

}  // namespace parperf::cli
