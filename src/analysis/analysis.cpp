#include "analysis/analysis.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "analysis/interval_findings.hpp"
#include "analysis/openmp_attribution.hpp"
#include "analysis/rank_list.hpp"
#include "analysis/rank_view.hpp"
#include "analysis/sampled_findings.hpp"
#include "analysis/site_resolution.hpp"
#include "analysis/threads_off_cpu.hpp"

namespace parperf::analysis {
namespace {

IntervalAnalysis analyze_interval(const IntervalTree& tree, std::size_t index, Unit unit) {
  const MergedInterval& merged = tree.intervals[index];
  const std::vector<ProcessorInput> inputs = processor_inputs(tree, merged, unit);
  IntervalAnalysis interval;
  interval.processors = processor_figures(inputs);
  interval.characteristics = characterize(inputs);
  interval.comparative = compare_processors(interval.processors);
  interval.totals = interval_totals(merged);
  interval.mpi_calls = mpi_calls(tree, index);
  interval.communication_classes = communication_classes(interval.mpi_calls);
  interval.diagnosis = diagnose(interval.characteristics, interval.comparative);
  return interval;
}

void check_view_rank(const IntervalTree& tree, std::int64_t rank) {
  if (tree.threads_per_rank.count(rank)) return;
  std::vector<std::int64_t> ranks;
  for (const auto& [known, threads] : tree.threads_per_rank) ranks.push_back(known);
  throw std::invalid_argument(fmt::format("--rank {}: the run has no profile of rank {} (profiles: ranks {})",
                                          rank, rank, rank_list(ranks)));
}

// The cores run.json recorded, when every profile comes from the host that recorded them.
std::optional<format::HostCores> single_host_cores(const RunData& run) {
  if (!run.run_info || !run.run_info->cores) return std::nullopt;
  for (const format::Profile& profile : run.profiles)
    if (profile.process.hostname != run.run_info->hostname) return std::nullopt;
  return run.run_info->cores;
}

}  // namespace

Analysis analyze(const RunData& run, const AnalysisOptions& options) {
  Analysis analysis;
  analysis.sites = resolve_code_sites(run);
  analysis.whole_run = build_interval_tree(run.profiles, analysis.sites);
  // Before anything reads the times: every later figure is of the program without its probes.
  if (options.compensate_probes)
    analysis.probe_compensation = compensate_probe_costs(analysis.whole_run, probe_costs_of(run.profiles));
  // MPI first: it puts each interval's own figures in place, which the OpenMP pass then sums up.
  analysis.mpi = analyze_mpi(analysis.whole_run, run.profiles, analysis.sites);
  attribute_openmp(analysis.whole_run);
  if (analysis.whole_run.threads_per_rank.size() > 1)
    analysis.slowest_rank = slowest_rank(analysis.whole_run);

  analysis.traffic = one_sided_traffic(run.profiles);
  analysis.view_rank = options.rank;
  if (options.rank) {
    check_view_rank(analysis.whole_run, *options.rank);
    analysis.rank_tree = rank_view(analysis.whole_run, *options.rank);
  }
  const std::int64_t processes = std::max(run.world_size, static_cast<std::int64_t>(run.profiles.size()));
  // One rank's view is an OpenMP view: its threads are the processors.
  analysis.unit = options.rank ? Unit::thread : options.unit.value_or(default_unit(processes));

  const IntervalTree& tree = analysis.tree();
  analysis.intervals.reserve(tree.intervals.size());
  for (std::size_t i = 0; i < tree.intervals.size(); ++i)
    analysis.intervals.push_back(analyze_interval(tree, i, analysis.unit));
  std::vector<LoopBalance> loops = loop_balance(tree, analysis.unit, options.balance_alpha);
  for (LoopBalance& loop : loops) {
    IntervalAnalysis& interval = analysis.intervals[loop.interval];
    if (auto note = unbalanced_loop(loop, interval.characteristics.total_time))
      interval.diagnosis.push_back(std::move(*note));
    analysis.loops.push_back(loop.interval);
  }
  analysis.src_points = src_points(tree);
  if (!analysis.intervals.empty()) {
    std::vector<Characteristics> characteristics;
    for (const IntervalAnalysis& interval : analysis.intervals)
      characteristics.push_back(interval.characteristics);
    analysis.findings = main_findings(analysis.intervals[0].characteristics, analysis.src_points, loops,
                                      serial_sections(tree, characteristics));
    for (Finding& f : interval_loss_findings(tree, analysis.intervals, analysis.findings))
      analysis.findings.push_back(std::move(f));
    if (auto off_cpu =
            threads_off_cpu(thread_cpu_time(tree), analysis.intervals[0].characteristics.execution_time,
                            single_host_cores(run)))
      add_threads_off_cpu(analysis.findings, std::move(*off_cpu));
  }
  for (LoopBalance& loop : loops) analysis.intervals[loop.interval].loop_balance = std::move(loop);
  analysis.samples = analyse_samples(run, tree, analysis.unit, 0, options.library_internals);
  add_sampled_causes(analysis.findings, tree, analysis.intervals, analysis.samples, analysis.unit);
  return analysis;
}

}  // namespace parperf::analysis
