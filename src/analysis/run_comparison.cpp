#include "analysis/run_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace parperf::analysis {
namespace {

// Where an interval is in one run: its path, and which of the intervals with that path it is (two
// siblings can differ only in what IntervalStep leaves out; they pair up in tree order).
struct PathKey {
  std::vector<IntervalStep> path;
  std::size_t ordinal = 0;
  auto operator<=>(const PathKey&) const = default;
};

IntervalStep step_of(const IntervalIdentity& id) { return {id.kind, id.name, id.file, id.line, id.value}; }

// The key of every interval of `analysis` that its run executed (the program always), by tree index.
std::vector<std::optional<PathKey>> path_keys(const Analysis& analysis) {
  const IntervalTree& tree = analysis.tree();
  const std::size_t count = std::min(tree.intervals.size(), analysis.intervals.size());
  std::vector<std::vector<IntervalStep>> paths(count);
  std::vector<std::optional<PathKey>> keys(count);
  std::map<std::vector<IntervalStep>, std::size_t> seen;
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) {
      paths[i] = paths[tree.intervals[i].parent];
      paths[i].push_back(step_of(tree.intervals[i].identity));
    }
    // An interval in the tree that no processor of this view executed (another rank's, under
    // --rank) is not part of this run's picture.
    if (i != 0 && analysis.intervals[i].characteristics.processors == 0) continue;
    keys[i] = PathKey{paths[i], seen[paths[i]]++};
  }
  return keys;
}

std::optional<ComponentChange> largest_lost_change(const IntervalChange& change) {
  std::optional<ComponentChange> largest;
  for (const ComparedFigure component : kLostComponents) {
    const double delta = change.delta(component).value_or(0);
    if (delta != 0 && (!largest || std::fabs(delta) > std::fabs(largest->delta)))
      largest = ComponentChange{component, delta};
  }
  return largest;
}

IntervalChange change_of(const Analysis& a, std::optional<std::size_t> index_a, const Analysis& b,
                         std::optional<std::size_t> index_b, std::vector<IntervalStep> path) {
  IntervalChange change;
  change.path = std::move(path);
  change.index_a = index_a;
  change.index_b = index_b;
  change.status = !index_a   ? IntervalStatus::added
                  : !index_b ? IntervalStatus::vanished
                             : IntervalStatus::matched;
  if (index_a) change.a = a.intervals[*index_a].characteristics;
  if (index_b) change.b = b.intervals[*index_b].characteristics;
  change.impact = std::fabs(*change.delta(ComparedFigure::execution_time));
  change.largest_lost_change = largest_lost_change(change);
  return change;
}

RunSummary summary_of(const Analysis& analysis) {
  RunSummary summary;
  summary.unit = analysis.unit;
  summary.processes = static_cast<std::int64_t>(analysis.tree().threads_per_rank.size());
  if (!analysis.intervals.empty()) summary.program = analysis.intervals[0].characteristics;
  return summary;
}

ProgramChange program_change(const RunSummary& a, const RunSummary& b) {
  ProgramChange program;
  program.processors_differ = a.program.processors != b.program.processors;
  if (b.program.execution_time > 0) program.speedup = a.program.execution_time / b.program.execution_time;
  if (program.speedup && program.processors_differ && b.program.processors > 0)
    program.scaling_efficiency = *program.speedup * static_cast<double>(a.program.processors) /
                                 static_cast<double>(b.program.processors);
  program.efficiency_delta = b.program.efficiency - a.program.efficiency;
  for (const ComparedFigure component : kLostComponents)
    program.lost_changes.push_back(
        {component, compared_value(b.program, component) - compared_value(a.program, component)});
  std::stable_sort(program.lost_changes.begin(), program.lost_changes.end(),
                   [](const ComponentChange& x, const ComponentChange& y) {
                     return std::fabs(x.delta) > std::fabs(y.delta);
                   });
  return program;
}

// Biggest change first: what a reader should look at. Equal impacts (two intervals that did not
// change at all) keep the order they came in.
void sort_by_impact(std::vector<IntervalChange>& intervals) {
  if (intervals.empty()) return;
  std::stable_sort(intervals.begin() + 1, intervals.end(),
                   [](const IntervalChange& x, const IntervalChange& y) {
                     if (x.impact != y.impact) return x.impact > y.impact;
                     return std::fabs(*x.delta(ComparedFigure::lost_time)) >
                            std::fabs(*y.delta(ComparedFigure::lost_time));
                   });
}

std::string program_name(const RunData& run) {
  if (!run.run_info || run.run_info->command.empty()) return {};
  return std::filesystem::path(run.run_info->command.front()).filename().string();
}

}  // namespace

double compared_value(const Characteristics& c, ComparedFigure figure) {
  switch (figure) {
    case ComparedFigure::execution_time:
      return c.execution_time;
    case ComparedFigure::total_time:
      return c.total_time;
    case ComparedFigure::productive_time:
      return c.productive_time;
    case ComparedFigure::lost_time:
      return c.lost_time;
    case ComparedFigure::insufficient_parallelism:
      return c.insufficient_parallelism;
    case ComparedFigure::communication:
      return c.communication;
    case ComparedFigure::idle_time:
      return c.idle_time;
    case ComparedFigure::desync:
      return c.desync;
    case ComparedFigure::waiting:
      return c.waiting;
    case ComparedFigure::load_imbalance:
      return c.load_imbalance;
    case ComparedFigure::synchronization:
      return c.synchronization;
    case ComparedFigure::time_variation:
      return c.time_variation;
    case ComparedFigure::startup:
      return c.startup;
    case ComparedFigure::efficiency:
      return c.efficiency;
    case ComparedFigure::processors:
      return static_cast<double>(c.processors);
    case ComparedFigure::entries:
      return static_cast<double>(c.entries);
  }
  return 0;
}

std::optional<double> IntervalChange::delta(ComparedFigure figure) const {
  if (figure == ComparedFigure::efficiency && (!a || !b)) return std::nullopt;
  return (b ? compared_value(*b, figure) : 0) - (a ? compared_value(*a, figure) : 0);
}

RunComparison compare_runs(const Analysis& a, const Analysis& b) {
  RunComparison comparison;
  comparison.a = summary_of(a);
  comparison.b = summary_of(b);
  comparison.program = program_change(comparison.a, comparison.b);
  if (a.unit != b.unit)
    comparison.warnings.push_back(
        fmt::format("A's processors are {}s and B's {}s: pass --unit to compare like with like",
                    unit_name(a.unit), unit_name(b.unit)));

  const std::vector<std::optional<PathKey>> keys_a = path_keys(a);
  const std::vector<std::optional<PathKey>> keys_b = path_keys(b);
  std::map<PathKey, std::size_t> index_in_b;
  for (std::size_t j = 0; j < keys_b.size(); ++j)
    if (keys_b[j]) index_in_b.emplace(*keys_b[j], j);
  std::vector<bool> matched_in_b(keys_b.size(), false);
  for (std::size_t i = 0; i < keys_a.size(); ++i) {
    if (!keys_a[i]) continue;
    std::optional<std::size_t> j;
    if (const auto found = index_in_b.find(*keys_a[i]); found != index_in_b.end()) {
      j = found->second;
      matched_in_b[*j] = true;
    }
    comparison.intervals.push_back(change_of(a, i, b, j, keys_a[i]->path));
  }
  for (std::size_t j = 0; j < keys_b.size(); ++j)
    if (keys_b[j] && !matched_in_b[j])
      comparison.intervals.push_back(change_of(a, {}, b, j, keys_b[j]->path));

  const double base = comparison.a.program.execution_time > 0 ? comparison.a.program.execution_time
                                                              : comparison.b.program.execution_time;
  for (IntervalChange& change : comparison.intervals)
    change.impact_share = base > 0 ? change.impact / base : 0;
  sort_by_impact(comparison.intervals);
  return comparison;
}

RunComparison compare_runs(const RunData& run_a, const Analysis& a, const RunData& run_b, const Analysis& b) {
  RunComparison comparison = compare_runs(a, b);
  comparison.a.directory = run_a.directory.string();
  comparison.b.directory = run_b.directory.string();
  if (run_a.run_info) comparison.a.command = run_a.run_info->command;
  if (run_b.run_info) comparison.b.command = run_b.run_info->command;
  comparison.a.processes = run_a.world_size;
  comparison.b.processes = run_b.world_size;
  const std::string program_a = program_name(run_a);
  const std::string program_b = program_name(run_b);
  if (!program_a.empty() && !program_b.empty() && program_a != program_b)
    comparison.warnings.insert(comparison.warnings.begin(),
                               fmt::format("A ran {} and B ran {}: different programs, compared interval by "
                                           "interval all the same",
                                           program_a, program_b));
  return comparison;
}

}  // namespace parperf::analysis
