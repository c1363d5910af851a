#include "analysis/scaling/scaling_study.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace parperf::analysis::scaling {
namespace {

// The series of one quantity over the group's runs; runs without it (an interval a run never
// entered) leave no point, as nothing was measured there.
template <class Value>
ScalingSeries series_of(std::span<const RunSample* const> runs, Value value) {
  std::map<double, std::vector<double>> times;
  for (const RunSample* run : runs)
    if (const std::optional<double> v = value(*run)) times[run->processors].push_back(*v);
  ScalingSeries series;
  for (auto& [processors, values] : times) series.points.push_back({processors, std::move(values)});
  return series;
}

const IntervalSample* find_interval(const RunSample& run, const std::string& key) {
  for (const IntervalSample& interval : run.intervals)
    if (interval.key == key) return &interval;
  return nullptr;
}

// The fitted (recommended) time at `p`, from the prediction table; NaN when the table lacks it.
double predicted_at(const ScalingFit& fit, double p) {
  for (const ScalingPrediction& row : fit.predictions)
    if (row.processors == p) return row.time;
  return NAN;
}

double largest_measured(const ScalingSeries& series) {
  return series.points.empty() ? 0 : series.points.back().processors;
}

double median_at(const ScalingSeries& series, double p) {
  for (const ScalingPoint& point : series.points)
    if (point.processors == p) return point.median();
  return NAN;
}

// The largest share of the program's time the quantity had at any measured count.
double largest_share(const ScalingSeries& series, const ScalingSeries& program) {
  double share = 0;
  for (const ScalingPoint& point : series.points) {
    const double whole = median_at(program, point.processors);
    if (whole > 0) share = std::max(share, point.median() / whole);
  }
  return share;
}

StudyGroup study_group(std::span<const RunSample* const> runs, const StudyOptions& options) {
  StudyGroup group;
  group.parameters = runs.front()->parameters;
  group.unit = runs.front()->unit;
  for (const RunSample* run : runs) {
    const double time = run->intervals.empty() ? 0 : run->intervals.front().execution_time;
    group.runs.push_back({run->directory, run->processors, run->repetition, time});
  }
  std::sort(group.runs.begin(), group.runs.end(), [](const MeasuredRun& a, const MeasuredRun& b) {
    return std::tie(a.processors, a.repetition, a.directory) <
           std::tie(b.processors, b.repetition, b.directory);
  });

  const ScalingSeries program = series_of(runs, [](const RunSample& run) -> std::optional<double> {
    if (run.intervals.empty()) return std::nullopt;
    return run.intervals.front().execution_time;
  });
  group.program = fit_scaling(program, options.fit);
  const double max_p = static_cast<double>(options.fit.max_processors);
  const double program_at_max = predicted_at(group.program, max_p);

  for (const LossComponent component : kLossComponents) {
    const ScalingSeries loss = series_of(runs, [component](const RunSample& run) -> std::optional<double> {
      if (run.intervals.empty()) return std::nullopt;
      return run.intervals.front().losses.at(component);
    });
    // A loss is a sum over processors, the program's time is one processor's: compare per processor.
    double share = 0;
    for (const ScalingPoint& point : loss.points) {
      const double whole = median_at(program, point.processors) * point.processors;
      if (whole > 0) share = std::max(share, point.median() / whole);
    }
    if (share < options.negligible_share) continue;
    group.losses.push_back({component, fit_scaling(loss, options.fit)});
  }

  // Every interval but the program, once, in the order of the first run that has it.
  std::vector<const IntervalSample*> intervals;
  std::set<std::string> seen;
  for (const RunSample* run : runs)
    for (std::size_t i = 1; i < run->intervals.size(); ++i)
      if (seen.insert(run->intervals[i].key).second) intervals.push_back(&run->intervals[i]);
  for (const IntervalSample* interval : intervals) {
    const ScalingSeries series = series_of(runs, [&](const RunSample& run) -> std::optional<double> {
      const IntervalSample* found = find_interval(run, interval->key);
      return found ? std::optional<double>(found->execution_time) : std::nullopt;
    });
    if (series.points.size() < 2 || largest_share(series, program) < options.negligible_share) continue;
    IntervalPrediction prediction{interval->identity, interval->level, fit_scaling(series, options.fit)};
    const double at_max = predicted_at(prediction.fit, max_p);
    const double at_largest = median_at(series, largest_measured(series));
    prediction.growth = at_largest > 0 && std::isfinite(at_max) ? at_max / at_largest : 0;
    prediction.share_at_max = program_at_max > 0 && std::isfinite(at_max) ? at_max / program_at_max : 0;
    group.growing.push_back(std::move(prediction));
  }
  std::stable_sort(
      group.growing.begin(), group.growing.end(),
      [](const IntervalPrediction& a, const IntervalPrediction& b) { return a.growth > b.growth; });
  if (group.growing.size() > options.top_intervals) group.growing.resize(options.top_intervals);
  return group;
}

}  // namespace

std::string_view loss_component_name(LossComponent component) {
  switch (component) {
    case LossComponent::communication:
      return "communication";
    case LossComponent::idle:
      return "idle time";
    case LossComponent::insufficient_parallelism:
      return "insufficient parallelism";
    case LossComponent::synchronization:
      return "synchronization";
    case LossComponent::load_imbalance:
      return "load imbalance";
  }
  return "?";
}

ScalingStudy study_scaling(std::span<const RunSample> runs, const StudyOptions& options) {
  ScalingStudy study;
  std::map<std::map<std::string, std::string>, std::vector<const RunSample*>> groups;
  std::set<std::string> units;
  for (const RunSample& run : runs) {
    groups[run.parameters].push_back(&run);
    units.insert(run.unit);
  }
  if (units.size() > 1) {
    std::string listed;
    for (const std::string& unit : units) listed += (listed.empty() ? "" : ", ") + unit;
    study.warnings.push_back(fmt::format(
        "the runs count their processors in different units ({}): a model over them mixes threads and ranks",
        listed));
  }
  for (const auto& [parameters, members] : groups) study.groups.push_back(study_group(members, options));
  return study;
}

}  // namespace parperf::analysis::scaling
