// `parperf export DIR --perfetto FILE --chrome-json FILE --otf2 DIR --csv FILE`: the run's event
// traces, merged in corrected time, written in one pass for other tools (src/export). Every problem
// ends the command with one line "parperf: <problem>" on stderr and exit status 1.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "analysis/run_loader.hpp"
#include "analysis/site_resolution.hpp"
#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/trace_samples.hpp"
#include "cli/command_errors.hpp"
#include "cli/commands.hpp"
#include "export/chrome_json_writer.hpp"
#include "export/communication_flows.hpp"
#include "export/csv_writer.hpp"
#include "export/export_timeline.hpp"
#include "export/otf2_writer.hpp"
#include "export/perfetto_writer.hpp"
#include "report/dependency_report.hpp"
#include "report/printable_text.hpp"

namespace parperf::cli {
namespace {

struct ExportCommandOptions {
  std::string directory;
  std::string perfetto, chrome_json, otf2, csv;
  bool partial = false;
};

// "parperf export: 45% (1200000 of 2700000 events)", rewritten in place; only on a terminal.
std::function<void(const exports::ExportProgress&)> progress_on_terminal() {
  if (!::isatty(STDERR_FILENO)) return {};
  return [](const exports::ExportProgress& p) {
    const std::uint64_t total = std::max<std::uint64_t>(p.events_total, 1);
    fmt::print(stderr, "\rparperf export: {:3}% ({} of {} events)", p.events_done * 100 / total,
               p.events_done, p.events_total);
    if (p.events_done >= p.events_total) fmt::print(stderr, "\n");
    std::fflush(stderr);
  };
}

void run_export(const ExportCommandOptions& o) {
  if (o.perfetto.empty() && o.chrome_json.empty() && o.otf2.empty() && o.csv.empty())
    throw std::runtime_error(
        "nothing to write: give at least one of --perfetto, --chrome-json, --otf2, --csv");
  const analysis::RunData run = analysis::load_run(o.directory, analysis::LoadOptions{o.partial});
  const analysis::TraceRun traces = exports::load_exported_traces(run);
  const analysis::SiteTable sites = analysis::resolve_code_sites(run);
  const analysis::TraceSamples samples = analysis::load_trace_samples(traces);
  for (const auto* warnings :
       {&run.warnings, &sites.warnings, &traces.warnings, &traces.clocks.warnings, &samples.warnings})
    for (const std::string& warning : *warnings)
      fmt::print(stderr, "parperf: warning: {}\n", report::printable(warning));
  const exports::TimelineNames names(traces, sites);

  std::vector<std::unique_ptr<exports::TimelineWriter>> writers;
  if (!o.perfetto.empty()) writers.push_back(std::make_unique<exports::PerfettoWriter>(o.perfetto, names));
  if (!o.chrome_json.empty())
    writers.push_back(std::make_unique<exports::ChromeJsonWriter>(o.chrome_json, names));
  if (!o.otf2.empty()) writers.push_back(std::make_unique<exports::Otf2Writer>(o.otf2, names));
  if (!o.csv.empty()) writers.push_back(std::make_unique<exports::CsvWriter>(o.csv, names));
  std::vector<exports::TimelineWriter*> outputs;
  for (const auto& w : writers) outputs.push_back(w.get());
  // The timelines show the times the analysis uses: corrected, and repaired where a message would
  // otherwise arrive before it was sent (analysis/trace/clock_repair.hpp).
  const analysis::Communication communication = analysis::match_communication(traces);
  analysis::ActivityGraph graph = analysis::build_activity_graph(traces, communication);
  const analysis::ClockRepair repair = analysis::repair_clock_condition(graph);
  exports::CommunicationFlows arrows = exports::communication_flows(communication, names);
  std::vector<exports::Flow>& flows = arrows.flows;
  if (arrows.untraced_targets > 0)
    fmt::print(stderr,
               "parperf: warning: {} {} a process without a trace (its file is missing, or the target "
               "recorded is damaged): drawn without {} arrow{}\n",
               arrows.untraced_targets,
               arrows.untraced_targets == 1 ? "put or get targets" : "puts or gets target",
               arrows.untraced_targets == 1 ? "its" : "their", arrows.untraced_targets == 1 ? "" : "s");
  if (repair.moved > 0) {
    exports::repair_flows(flows, repair);
    fmt::print(stderr, "parperf: {}; the timeline shows the repaired times\n",
               report::clock_repair_sentence(repair));
  }
  exports::export_timeline(traces, names, flows, outputs, progress_on_terminal(), 1 << 18, &samples,
                           repair.moved > 0 ? &repair : nullptr);
  // Say what was written, as `parperf report --html` does: a silent success looks like nothing happened.
  const std::pair<const std::string*, const char*> written[] = {{&o.perfetto, "the Perfetto trace"},
                                                                {&o.chrome_json, "the Chrome trace"},
                                                                {&o.otf2, "the OTF2 archive"},
                                                                {&o.csv, "the CSV events"}};
  for (const auto& [file, what] : written)
    if (!file->empty()) fmt::print("parperf: wrote {} {}\n", what, report::printable(*file));
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto o = std::make_shared<ExportCommandOptions>();
  auto* command = app.add_subcommand(
      "export",
      "Write the run's event trace, merged in corrected time, for Perfetto, Chrome, OTF2 tools or scripts");
  command->add_option("DIR", o->directory, "Run directory written by `parperf run --trace`")->required();
  command->add_option("--perfetto", o->perfetto, "Perfetto trace (protobuf) for ui.perfetto.dev")
      ->type_name("FILE");
  command
      ->add_option("--chrome-json", o->chrome_json,
                   "Chrome trace-event JSON for chrome://tracing (small traces)")
      ->type_name("FILE");
  command->add_option("--otf2", o->otf2, "OTF2 archive for Vampir, Scalasca, otf2-print (DIR/traces.otf2)")
      ->type_name("DIR");
  command->add_option("--csv", o->csv, "One CSV row per event, for scripts")->type_name("FILE");
  command->add_flag("--partial", o->partial,
                    "Export what can be read when profile files are missing or damaged (with warnings)");
  command->footer("Several outputs may be written by one call. docs/trace.md says how to open each.");
  command->callback([o] { report_errors_of([&] { run_export(*o); }); });
}

}  // namespace parperf::cli
