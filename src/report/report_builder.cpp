#include "report/report_builder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <stdexcept>

#include "analysis/characteristics.hpp"
#include "analysis/interval_totals.hpp"
#include "analysis/mpi_calls.hpp"
#include "analysis/rank_list.hpp"
#include "analysis/rank_view.hpp"
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
    summary.clock.push_back(ClockLine{rank, clock.corrected, in_seconds(clock.offset_init),
                                      in_seconds(clock.offset_finalize), clock.drift});
  }
  return summary;
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
void add_run_facts(RunSummary& summary, const analysis::RunData& run, const analysis::IntervalTree& tree,
                   const analysis::MpiAnalysis& mpi, const ReportOptions& options) {
  summary.missing_ranks = run.missing_ranks;
  summary.missing_rank_count = run.missing_rank_count;
  if (tree.threads_per_rank.size() > 1) summary.slowest_rank = analysis::slowest_rank(tree);
  summary.mpi = summarize_mpi(run, mpi);
  summary.view_rank = options.rank;
  summary.warnings.insert(summary.warnings.end(), mpi.clocks.warnings.begin(), mpi.clocks.warnings.end());
  summary.warnings.insert(summary.warnings.end(), mpi.matching.warnings.begin(), mpi.matching.warnings.end());
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
    interval.mpi_calls = analysis::mpi_calls(tree_, selected.interval);
    interval.communication_classes = analysis::communication_classes(interval.mpi_calls);
    interval.diagnosis = diagnose(interval.characteristics, interval.comparative);
    interval.children = report(selected.children);
    return interval;
  }

  const analysis::IntervalTree& tree_;
  const ReportOptions& options_;
  analysis::Unit unit_;
};

}  // namespace

Report build_report(const analysis::RunData& run, const analysis::IntervalTree& whole_run,
                    const ReportOptions& options, const analysis::MpiAnalysis& mpi) {
  analysis::IntervalTree view;
  if (options.rank) {
    if (!whole_run.threads_per_rank.count(*options.rank)) {
      std::vector<std::int64_t> ranks;
      for (const auto& [rank, threads] : whole_run.threads_per_rank) ranks.push_back(rank);
      throw std::invalid_argument(
          fmt::format("--rank {}: the run has no profile of rank {} (profiles: ranks {})", *options.rank,
                      *options.rank, analysis::rank_list(ranks)));
    }
    view = analysis::rank_view(whole_run, *options.rank);
  }
  const analysis::IntervalTree& tree = options.rank ? view : whole_run;
  std::int64_t processes = std::max(run.world_size, static_cast<std::int64_t>(run.profiles.size()));
  // One rank's view is an OpenMP view: its threads are the processors.
  analysis::Unit unit =
      options.rank ? analysis::Unit::thread : options.unit.value_or(analysis::default_unit(processes));
  Report report;
  report.run = summarize_run(run, tree, unit);
  add_run_facts(report.run, run, whole_run, mpi, options);
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
  report.collectives = mpi.matching.communicators;
  return report;
}

}  // namespace parperf::report
