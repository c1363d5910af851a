#include "report/report_builder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "analysis/characteristics.hpp"
#include "analysis/interval_totals.hpp"
#include "report/diagnosis.hpp"
#include "report/src_summary.hpp"

namespace parperf::report {
namespace {

// The profile's own command line; run.json's when a profile has none (a runtime that failed to
// read /proc/self/cmdline).
std::string command_of(const analysis::RunData& run) {
  for (const format::Profile& profile : run.profiles) {
    if (!profile.process.command_line.empty()) return profile.process.command_line;
  }
  nlohmann::json command;
  if (run.run_info.is_object() && run.run_info.contains("command")) command = run.run_info.at("command");
  if (command.is_string()) return command.get<std::string>();
  std::string joined;
  if (command.is_array()) {
    for (const nlohmann::json& word : command) {
      if (!word.is_string()) continue;
      if (!joined.empty()) joined += ' ';
      joined += word.get<std::string>();
    }
  }
  return joined;
}

RunSummary summarize_run(const analysis::RunData& run, const analysis::IntervalTree& tree,
                         analysis::Unit unit) {
  RunSummary summary;
  summary.directory = run.directory.string();
  summary.command = command_of(run);
  summary.processes = static_cast<std::int64_t>(run.profiles.size());
  summary.world_size = std::max(run.world_size, summary.processes);
  for (const auto& [rank, threads] : tree.threads_per_rank) summary.threads += threads;
  summary.unit = unit;
  summary.warnings = run.warnings;
  for (const format::Profile& profile : run.profiles)
    if (summary.openmp_runtime.empty()) summary.openmp_runtime = profile.process.openmp_runtime;
  for (std::size_t i = 0; i < run.profiles.size(); ++i) {
    const format::ProcessInfo& process = run.profiles[i].process;
    std::string file = i < run.profile_files.size() ? run.profile_files[i] : std::string();
    summary.end_reasons.push_back(ProfileEnd{process.rank, file, process.end_reason, process.end_signal});
    if (process.dropped_intervals > 0) {
      summary.warnings.push_back(fmt::format(
          "rank {}: {} interval entries were not recorded (nesting deeper than the configured maximum depth, "
          "or too many distinct intervals)",
          process.rank, process.dropped_intervals));
    }
  }
  return summary;
}

class IntervalReporter {
 public:
  IntervalReporter(const analysis::IntervalTree& tree, const ReportOptions& options, analysis::Unit unit)
      : tree_(tree), options_(options), unit_(unit) {}

  std::vector<ReportInterval> report(const std::vector<SelectedInterval>& selected) const {
    std::vector<ReportInterval> intervals;
    intervals.reserve(selected.size());
    for (const SelectedInterval& s : selected) intervals.push_back(report(s));
    return intervals;
  }

 private:
  ReportInterval report(const SelectedInterval& selected) const {
    const analysis::MergedInterval& merged = tree_.intervals[selected.interval];
    std::vector<analysis::ProcessorInput> inputs = analysis::processor_inputs(tree_, merged, unit_);
    std::vector<analysis::ProcessorFigures> figures = analysis::processor_figures(inputs);
    analysis::IntervalTotals totals = analysis::interval_totals(merged);

    ReportInterval interval;
    interval.identity = merged.identity;
    interval.level = merged.level;
    interval.count = totals.count;
    interval.open = totals.open;
    interval.characteristics = analysis::characterize(inputs);
    interval.comparative = analysis::compare_processors(figures);
    for (analysis::ProcessorFigures& f : figures) {
      if (!options_.per_processor || options_.per_processor->includes(f.processor)) {
        interval.per_processor.push_back(std::move(f));
      }
    }
    interval.iterations = totals.iterations;
    interval.events = std::move(totals.events);
    interval.diagnosis = diagnose(interval.characteristics, interval.comparative);
    interval.children = report(selected.children);
    return interval;
  }

  const analysis::IntervalTree& tree_;
  const ReportOptions& options_;
  analysis::Unit unit_;
};

}  // namespace

Report build_report(const analysis::RunData& run, const analysis::IntervalTree& tree,
                    const ReportOptions& options) {
  std::int64_t processes = std::max(run.world_size, static_cast<std::int64_t>(run.profiles.size()));
  analysis::Unit unit = options.unit.value_or(analysis::default_unit(processes));
  Report report;
  report.run = summarize_run(run, tree, unit);
  report.intervals = IntervalReporter(tree, options, unit).report(select_intervals(tree, options.filter));
  report.show_per_processor = options.per_processor.has_value();
  for (const auto& [location, facts] : tree.thread_facts) {
    const bool master = facts.kind == format::ThreadKind::initial ||
                        (facts.kind == format::ThreadKind::other && location.thread == 0);
    report.threads.push_back(
        ThreadLine{location, facts.kind, master, static_cast<double>(facts.parked_ns) / 1e9});
  }
  report.src_points = analysis::src_points(tree);
  if (!tree.intervals.empty()) {
    std::vector<analysis::ProcessorInput> inputs = analysis::processor_inputs(tree, tree.intervals[0], unit);
    const analysis::Characteristics program = analysis::characterize(inputs);
    report.program_total_time = program.total_time;
    report.summary = summarize_losses(program, report.src_points);
  }
  return report;
}

}  // namespace parperf::report
