// `parperf trace DIR`: the run's event trace, merged in corrected time (report/event_listing.hpp),
// when it was recorded with --trace; otherwise (or with --profile) each thread's interval tree,
// operations and user events as its profile holds them, one readable block per (rank, thread).
// Loads the run like `parperf report`; every problem ends the command with one line
// "parperf: <problem>" on stderr and exit status 1.
#include "cli/trace_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "analysis/run_loader.hpp"
#include "analysis/site_resolution.hpp"
#include "analysis/trace/trace_run.hpp"
#include "cli/command_errors.hpp"
#include "report/event_listing.hpp"
#include "report/interval_selection.hpp"
#include "report/printable_text.hpp"
#include "report/trace_listing.hpp"

namespace parperf::cli {
namespace {

struct TraceCommandOptions {
  std::string directory;
  std::vector<std::string> ranks;
  std::vector<std::string> threads;
  std::vector<std::string> events;
  std::vector<std::string> no_events;
  std::vector<std::string> intervals;
  std::vector<std::string> no_intervals;
  std::string from;
  std::string to;
  bool profile = false;
  bool partial = false;
};

// Each repetition of an option may itself be a comma-separated list.
std::vector<std::string> names_of(const std::vector<std::string>& lists) {
  std::vector<std::string> names;
  for (const std::string& list : lists) {
    std::vector<std::string> items = report::split_names(list);
    names.insert(names.end(), items.begin(), items.end());
  }
  return names;
}

report::TraceFilter trace_filter(const TraceCommandOptions& o) {
  report::TraceFilter filter;
  for (const std::string& list : o.ranks) {
    std::vector<std::int64_t> ranks = report::parse_rank_list(list);
    filter.ranks.insert(filter.ranks.end(), ranks.begin(), ranks.end());
  }
  for (const std::string& list : o.threads) {
    std::vector<report::ThreadSelector> threads = report::parse_thread_list(list);
    filter.threads.insert(filter.threads.end(), threads.begin(), threads.end());
  }
  filter.events = names_of(o.events);
  filter.no_events = names_of(o.no_events);
  filter.intervals = names_of(o.intervals);
  filter.no_intervals = names_of(o.no_intervals);
  return filter;
}

// The default describer, with the sites found at code addresses where symbolization put them.
report::SiteDescriber located_sites(const analysis::SiteTable& sites, const format::Profile& profile) {
  return [&sites, rank = profile.process.rank](const format::Site& site, const format::Site* construct) {
    const analysis::SiteLocation where = sites.location(rank, site);
    format::Site located = site;
    located.file = where.file;
    located.line = where.line;
    located.name = where.name_of(site);
    report::SiteText text = report::describe_site(located, construct);
    text.line2 = where.end_line;
    return text;
  };
}

// The event trace, line by line as the merge produces it.
void list_events(const TraceCommandOptions& o, const report::EventListingOptions& options,
                 const analysis::RunData& run, const analysis::SiteTable& sites) {
  const analysis::TraceRun traces = analysis::load_traces(run);
  const std::string limits = report::describe_trace_limits(traces, run);
  if (!limits.empty()) fmt::print(stderr, "{}", limits);
  const std::uint64_t shown = report::render_event_listing(
      traces, options, [&](const format::Profile& profile) { return located_sites(sites, profile); },
      [](std::string_view line) { std::fwrite(line.data(), 1, line.size(), stdout); });
  std::fflush(stdout);
  if (shown == 0)
    throw std::runtime_error(
        o.from.empty() && o.to.empty()
            ? "no event of the trace matches the selection"
            : "no event of the trace lies in the --from/--to window and matches the selection");
}

void run_trace(const TraceCommandOptions& o) {
  report::EventListingOptions options;  // option errors before the (slower) load
  options.filter = trace_filter(o);
  if (!o.from.empty()) options.from_ns = report::parse_time_ns("--from", o.from);
  if (!o.to.empty()) options.to_ns = report::parse_time_ns("--to", o.to);
  const report::TraceFilter& filter = options.filter;
  const analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
  const analysis::SiteTable sites = analysis::resolve_code_sites(run);
  for (const auto* warnings : {&run.warnings, &sites.warnings})
    for (const std::string& warning : *warnings)
      fmt::print(stderr, "parperf: warning: {}\n", report::printable(warning));
  if (!o.profile && analysis::has_traces(run.directory)) return list_events(o, options, run, sites);
  if (!o.from.empty() || !o.to.empty())
    throw std::runtime_error(
        o.directory + " has no event trace: --from/--to need one (record it with parperf run --trace)");
  std::string listing;
  for (const format::Profile& profile : run.profiles) {
    const std::string blocks = report::render_trace_listing(profile, filter, located_sites(sites, profile));
    if (blocks.empty()) continue;
    if (!listing.empty()) listing += '\n';
    listing += blocks;
  }
  if (listing.empty()) throw std::runtime_error("no thread of the run matches --rank and --thread");
  fmt::print("{}", listing);
  std::fflush(stdout);
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto o = std::make_shared<TraceCommandOptions>();
  auto* trace =
      app.add_subcommand("trace",
                         "Print the run's events in time order (recorded with --trace), else each thread's "
                         "intervals, operations and user events, nested");
  trace->add_option("DIR", o->directory, "Run directory written by `parperf run`")->required();
  // One value per occurrence, so that `--thread 1 DIR` leaves DIR alone; occurrences add up.
  auto list_option = [trace](const std::string& name, std::vector<std::string>& lists,
                             const std::string& help) {
    trace->add_option(name, lists, help)->allow_extra_args(false)->type_name("LIST");
  };
  list_option("--rank", o->ranks, "Only the threads of these ranks (processes), e.g. 0,2");
  list_option("--thread", o->threads,
              "Only these threads: T (thread T of every rank) or R:T (thread T of rank R), "
              "e.g. 0,1:3");
  list_option("--events", o->events,
              "Show only the user events and operations whose names or kinds match these "
              "comma-separated globs or kind words (e.g. 'halo*,critical,implicit barrier,user "
              "event'); 'none' hides them all");
  list_option("--no-events", o->no_events,
              "Hide the user events and operations whose names or kinds match these comma-separated "
              "globs or kind words");
  list_option("--intervals", o->intervals,
              "Show only the intervals whose names or kinds match these comma-separated globs or kind "
              "words (e.g. 'solve*,parallel region,loop'); what lies inside a hidden interval moves "
              "up to the nearest shown one");
  list_option("--no-intervals", o->no_intervals,
              "Hide the intervals whose names or kinds match these comma-separated globs or kind "
              "words; what lies inside them is still shown, one level up");
  trace
      ->add_option("--from", o->from,
                   "Only events at or after this time (seconds since rank 0's start; 1.5, 200ms, 30us)")
      ->type_name("TIME");
  trace->add_option("--to", o->to, "Only events at or before this time")->type_name("TIME");
  trace->add_flag("--profile", o->profile,
                  "List each thread's profile tree even when the run has an event trace");
  trace->add_flag("--partial", o->partial,
                  "List what can be read when profile files are missing or damaged (with warnings)");
  trace->footer(
      "Each LIST is comma-separated, and its option may be repeated. Kind words: program, user interval, "
      "parallel loop, sequential loop, parallel region, loop, sections, "
      "single, workshare, distribute, taskloop, masked, task, scope; barrier, implicit barrier, runtime "
      "barrier, taskwait, taskgroup, reduction, critical, lock, nested lock, ordered, atomic, flush, task "
      "creation, lock init, lock destroy; user event. Case, '_' and '-' do not matter in kind words.");

  trace->callback([o] { report_errors_of([&] { run_trace(*o); }); });
}

}  // namespace parperf::cli
