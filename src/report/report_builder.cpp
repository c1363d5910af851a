#include "report/report_builder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "format/run_directory.hpp"
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
  std::string joined;
  if (run.run_info) {
    for (const std::string& word : run.run_info->command) {
      if (!joined.empty()) joined += ' ';
      joined += word;
    }
  }
  return joined;
}

// The MPI collector's view of the run: the library and link figures of rank 0 (or of the lowest
// rank that has them), and every rank's clock correction.
std::optional<MpiSummary> summarize_mpi(const analysis::RunData& run, const analysis::MpiAnalysis& mpi) {
  const format::Profile* first = nullptr;
  for (const format::Profile& profile : run.profiles)
    if (profile.has_mpi && (!first || profile.process.rank < first->process.rank)) first = &profile;
  if (!first) return std::nullopt;
  MpiSummary summary;
  summary.library = first->mpi.library;
  summary.latency = static_cast<double>(first->mpi.latency_ns) / 1e9;
  summary.bandwidth = static_cast<double>(first->mpi.bandwidth_bytes_per_s);
  summary.thread_level = first->mpi.thread_level;
  for (const auto& [rank, clock] : mpi.clocks.clocks) {
    auto in_seconds = [](const std::optional<double>& ns) {
      return ns ? std::optional<double>(*ns / 1e9) : std::nullopt;
    };
    summary.clock.push_back(ClockLine{
        rank, clock.corrected, in_seconds(clock.offset_init), in_seconds(clock.offset_finalize), clock.drift,
        in_seconds(clock.error_init), in_seconds(clock.error_finalize), clock.drift_error});
  }
  return summary;
}

RunSummary summarize_run(const analysis::RunData& run, const analysis::Analysis& analysis) {
  const analysis::IntervalTree& tree = analysis.tree();
  RunSummary summary;
  summary.directory = run.directory.string();
  summary.command = command_of(run);
  if (run.run_info) {
    summary.host = run.run_info->hostname;
    if (run.run_info->start_unix_s > 0) summary.started_unix_s = run.run_info->start_unix_s;
    if (run.run_info->wall_time_s > 0) summary.wall_time = run.run_info->wall_time_s;
  }
  summary.processes = static_cast<std::int64_t>(run.profiles.size());
  summary.world_size = std::max(run.world_size, summary.processes);
  for (const auto& [rank, threads] : tree.threads_per_rank) summary.threads += threads;
  summary.unit = analysis.unit;
  summary.warnings = run.warnings;
  summary.warnings.insert(summary.warnings.end(), analysis.sites.warnings.begin(),
                          analysis.sites.warnings.end());
  for (const format::Profile& profile : run.profiles)
    if (summary.openmp_runtime.empty()) summary.openmp_runtime = profile.process.openmp_runtime;
  summary.openmp_runtime_substituted =
      run.run_info && run.run_info->openmp_runtime == format::kOpenmpRuntimeSubstituted;
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
    if (const std::uint64_t missing = run.profiles[i].threads_not_measured; missing > 0) {
      summary.warnings.push_back(fmt::format(
          "rank {}: {} threads were not measured: they started after {} others were (PARPERF_MAX_THREADS); "
          "the figures cover the measured threads only",
          process.rank, missing, process.thread_count));
    }
  }
  return summary;
}

// What a whole-run analysis adds to the summary: MPI, the slowest rank, missing ranks, the view.
void add_run_facts(RunSummary& summary, const analysis::RunData& run, const analysis::Analysis& analysis) {
  summary.missing_ranks = run.missing_ranks;
  summary.missing_rank_count = run.missing_rank_count;
  summary.slowest_rank = analysis.slowest_rank;
  const analysis::MpiAnalysis& mpi = analysis.mpi;
  summary.mpi = summarize_mpi(run, mpi);
  summary.view_rank = analysis.view_rank;
  summary.traffic = analysis.traffic;
  summary.probe_compensation = analysis.probe_compensation;
  summary.warnings.insert(summary.warnings.end(), mpi.clocks.warnings.begin(), mpi.clocks.warnings.end());
  summary.warnings.insert(summary.warnings.end(), mpi.matching.warnings.begin(), mpi.matching.warnings.end());
}

class IntervalReporter {
 public:
  IntervalReporter(const analysis::Analysis& analysis, const ReportOptions& options)
      : analysis_(analysis), options_(options) {}

  std::vector<ReportInterval> report(const std::vector<SelectedInterval>& selected) const {
    std::vector<ReportInterval> intervals;
    intervals.reserve(selected.size());
    for (const SelectedInterval& s : selected) intervals.push_back(report(s));
    return intervals;
  }

 private:
  ReportInterval report(const SelectedInterval& selected) const {
    const analysis::MergedInterval& merged = analysis_.tree().intervals[selected.interval];
    const analysis::IntervalAnalysis& analysed = analysis_.intervals[selected.interval];

    ReportInterval interval;
    interval.identity = merged.identity;
    interval.tree_index = selected.interval;
    interval.level = merged.level;
    interval.count = analysed.totals.count;
    interval.open = analysed.totals.open;
    interval.characteristics = analysed.characteristics;
    interval.comparative = analysed.comparative;
    for (const analysis::ProcessorFigures& f : analysed.processors) {
      if (!options_.per_processor || options_.per_processor->includes(f.processor)) {
        interval.per_processor.push_back(f);
      }
    }
    interval.iterations = analysed.totals.iterations;
    interval.loop_balance = analysed.loop_balance;
    for (const analysis::Finding& f : analysed.diagnosis)
      if (f.kind == analysis::FindingKind::unbalanced_loop) interval.loop_finding = f;
    interval.events = analysed.totals.events;
    interval.mpi_calls = analysed.mpi_calls;
    interval.communication_classes = analysed.communication_classes;
    interval.diagnosis = diagnosis_text(analysed.diagnosis);
    interval.children = report(selected.children);
    return interval;
  }

  const analysis::Analysis& analysis_;
  const ReportOptions& options_;
};

}  // namespace

void add_findings(Report& report, const std::vector<analysis::Finding>& findings) {
  for (const analysis::Finding& finding : findings) {
    report.findings.push_back(finding);
    report.summary.push_back(main_finding_text(finding));
  }
}

Report build_report(const analysis::RunData& run, const analysis::Analysis& analysis,
                    const ReportOptions& options) {
  const analysis::IntervalTree& tree = analysis.tree();
  Report report;
  report.run = summarize_run(run, analysis);
  add_run_facts(report.run, run, analysis);
  report.intervals = IntervalReporter(analysis, options).report(select_intervals(tree, options.filter));
  report.show_per_processor = options.per_processor.has_value();
  for (const auto& [location, facts] : tree.thread_facts) {
    const bool master = facts.kind == format::ThreadKind::initial ||
                        (facts.kind == format::ThreadKind::other && location.thread == 0);
    report.threads.push_back(
        ThreadLine{location, facts.kind, master, static_cast<double>(facts.parked_ns) / 1e9});
  }
  report.src_points = analysis.src_points;
  for (std::size_t i : analysis.loops)
    if (analysis.intervals[i].loop_balance) report.loops.push_back(*analysis.intervals[i].loop_balance);
  report.program_total_time = analysis.program_total_time();
  add_findings(report, analysis.findings);
  report.collectives = analysis.mpi.matching.communicators;
  report.samples = analysis.samples;
  return report;
}

}  // namespace parperf::report
