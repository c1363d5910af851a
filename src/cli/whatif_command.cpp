// `parperf whatif DIR`: replays a traced run with changed costs (analysis/trace/what_if.hpp) and
// prints the measured, replayed and predicted times and the gain, as text or JSON. With `--np K` (or
// started by mpirun as several processes) the run is analysed and replayed by parts as an MPI job, as
// `parperf report --np` analyses it (mpi_job_handover.hpp), and process 0 prints.
#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "analysis/analysis.hpp"
#include "analysis/run_loader.hpp"
#include "analysis/trace/what_if.hpp"
#include "cli/command_errors.hpp"
#include "cli/commands.hpp"
#include "cli/host_cores.hpp"
#include "cli/mpi_job_handover.hpp"
#include "cli/trace_analysis_memory.hpp"
#include "cli/trace_source.hpp"
#include "report/json_text.hpp"
#include "report/printable_text.hpp"
#include "report/whatif_report.hpp"

namespace parperf::cli {
namespace {

struct WhatIfOptions {
  std::string directory;
  bool ideal_network = false;
  std::string network;  // latency=SECONDS,bandwidth=BYTES_PER_S
  std::vector<std::string> balance;
  std::vector<std::string> scale;  // NAME=F
  bool json = false;
  bool partial = false;
  int processes = 0;  // --np
};

double positive_number(std::string_view text, std::string_view what) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
    throw std::invalid_argument(fmt::format("{}: '{}' is not a number of at least 0", what, text));
  return value;
}

// "latency=1e-6,bandwidth=1e10"
analysis::NetworkModel parse_network(const std::string& text) {
  analysis::NetworkModel model;
  bool latency = false, bandwidth = false;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::string_view part = rest.substr(0, rest.find(','));
    rest = part.size() == rest.size() ? std::string_view{} : rest.substr(part.size() + 1);
    const auto equals = part.find('=');
    const std::string_view key = part.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view{} : part.substr(equals + 1);
    if ((key == "latency" && latency) || (key == "bandwidth" && bandwidth))
      throw std::invalid_argument(fmt::format("--network gives the {} twice", key));
    if (key == "latency") {
      model.latency_ns = positive_number(value, "--network latency (seconds)") * 1e9;
      // The replay adds latencies up in ns: one past a double's range would predict an infinite run.
      if (!std::isfinite(model.latency_ns))
        throw std::invalid_argument(fmt::format("--network latency (seconds): '{}' is too large", value));
      latency = true;
    } else if (key == "bandwidth") {
      const double bytes_per_s = positive_number(value, "--network bandwidth (bytes per second)");
      if (bytes_per_s <= 0)
        throw std::invalid_argument("--network bandwidth must be more than 0 bytes per second");
      model.bytes_per_ns = bytes_per_s * 1e-9;
      // A transfer takes bytes / bytes_per_ns: below the smallest normal double, even one byte would
      // take an infinite time.
      if (model.bytes_per_ns < std::numeric_limits<double>::min())
        throw std::invalid_argument(
            fmt::format("--network bandwidth (bytes per second): '{}' is too small", value));
      bandwidth = true;
    } else {
      throw std::invalid_argument(
          fmt::format("--network takes latency=SECONDS,bandwidth=BYTES_PER_S, not '{}'",
                      report::printable(std::string(part))));
    }
  }
  if (!latency || !bandwidth)
    throw std::invalid_argument("--network needs both latency=SECONDS and bandwidth=BYTES_PER_S");
  return model;
}

analysis::ReplayChanges changes_of(const WhatIfOptions& o) {
  analysis::ReplayChanges changes;
  if (o.ideal_network) changes.network = analysis::ReplayChanges::Network::ideal;
  if (!o.network.empty()) {
    changes.network = analysis::ReplayChanges::Network::model;
    changes.model = parse_network(o.network);
  }
  changes.balance = o.balance;
  for (const std::string& s : o.scale) {
    const auto equals = s.rfind('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument(fmt::format("--scale takes NAME=F, not '{}'", report::printable(s)));
    const double factor = positive_number(std::string_view(s).substr(equals + 1), "--scale's factor F");
    if (factor <= 0) throw std::invalid_argument("--scale's factor F must be more than 0 (F times faster)");
    changes.scale.emplace_back(s.substr(0, equals), factor);
  }
  return changes;
}

// The options again, for the processes of a parallel analysis.
std::vector<std::string> whatif_arguments(const WhatIfOptions& o) {
  std::vector<std::string> arguments = {"whatif"};
  if (o.ideal_network) arguments.push_back("--ideal-network");
  if (!o.network.empty()) arguments.insert(arguments.end(), {"--network", o.network});
  for (const std::string& b : o.balance) arguments.insert(arguments.end(), {"--balance", b});
  for (const std::string& s : o.scale) arguments.insert(arguments.end(), {"--scale", s});
  if (o.json) arguments.push_back("--json");
  if (o.partial) arguments.push_back("--partial");
  arguments.push_back(o.directory);
  return arguments;
}

void run_whatif(const WhatIfOptions& o) {
  const analysis::ReplayChanges changes = changes_of(o);  // option errors before the (slower) load
  // A run without traces is refused before --np starts a job to replay it.
  const auto require_traces = [&](const analysis::RunData& run) {
    if (!analysis::has_traces(run.directory))
      throw std::runtime_error(
          fmt::format("{} has no event trace to replay: record the run with `parperf run --trace`",
                      report::printable(o.directory)));
  };
  if (continues_as_mpi_job(o.processes)) {
    // As report --np: the profiles read here first, so that their errors are said once, before the job.
    if (o.processes > 0) require_traces(analysis::load_run(o.directory, analysis::LoadOptions{o.partial}));
    hand_over_to_mpi_job(o.processes, whatif_arguments(o));
  }
  const analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
  require_traces(run);
  const TraceSource& source = trace_source();
  TracedRun job;
  const analysis::SiteTable no_sites;  // a replay names no sites; the traces point to it while analysed
  if (source.analyse)
    job = source.analyse(run, no_sites);
  else
    job.traces = analysis::load_traces(run);
  if (!source.prints && !job.by_parts) return;  // one process of a parallel analysis, not the first
  if (!job.analysis) {
    if (!job.traces) return;
    std::string note;
    job.analysis = analyse_traces_within_memory(*job.traces, analysis_threads(), o.directory, note);
    if (!job.analysis)
      throw std::runtime_error(trace_memory_message(o.directory, analysis::trace_events(*job.traces)));
  }
  const analysis::WhatIf w = analysis::what_if(*job.analysis, changes);  // by parts: made by all together
  if (!source.prints) return;
  // Each option is finite, but together (a latency near a double's limit on every one of many
  // messages) they can still add up past it: say so rather than print an infinite prediction.
  if (!std::isfinite(w.predicted_ns))
    throw std::runtime_error(
        fmt::format("the run replayed with these changes would take longer than parperf can count ({} ns): "
                    "give a smaller latency or a larger bandwidth",
                    w.predicted_ns));
  // What the replay could not see (a trace cut short, a rank without one, clocks left uncorrected):
  // a prediction from part of the run is said to be one, as the report says it.
  for (const std::vector<std::string>* warnings : {&run.warnings, &std::as_const(job.analysis->warnings)})
    for (const std::string& warning : *warnings)
      fmt::print(stderr, "parperf: warning: {}\n", report::printable(warning));
  if (o.json)
    fmt::print("{}\n", report::json_text(report::whatif_json(w)));
  else
    fmt::print("{}", report::whatif_text(o.directory, w));
}

}  // namespace

void add_whatif_command(CLI::App& app) {
  auto o = std::make_shared<WhatIfOptions>();
  auto* command = app.add_subcommand("whatif",
                                     "Replay a traced run with changed costs: what an ideal network, a "
                                     "balanced or faster interval would gain");
  command->add_option("DIR", o->directory, "Run directory written by `parperf run --trace`")->required();
  auto* ideal =
      command->add_flag("--ideal-network", o->ideal_network,
                        "Zero latency, infinite bandwidth: MPI and OpenSHMEM calls cost only their waiting");
  command
      ->add_option("--network", o->network,
                   "A network of this latency (seconds) and bandwidth (bytes per second), e.g. "
                   "latency=2e-6,bandwidth=1e10")
      ->type_name("latency=S,bandwidth=B")
      ->excludes(ideal);
  command
      ->add_option(
          "--balance", o->balance,
          "Every instance of interval NAME takes the mean of its instances on the locations that run it "
          "together (repeatable)")
      ->type_name("NAME");
  command->add_option("--scale", o->scale, "Interval NAME runs F times faster (repeatable)")
      ->type_name("NAME=F");
  command->add_flag("--json", o->json, "Print the result as JSON (times in seconds)");
  command->add_flag("--partial", o->partial,
                    "Replay what can be read when profile files are missing or damaged");
  command
      ->add_option("--np", o->processes,
                   "Replay the event traces as an MPI job of N processes (mpirun -np N, or $PARPERF_MPIRUN), "
                   "each holding the part of the run its ranks make; the same result as without")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 20));
  command->callback([o] { report_errors_of([&] { run_whatif(*o); }); });
}

}  // namespace parperf::cli
