#include "analysis/scaling/run_sample.hpp"

#include <fmt/format.h>

namespace parperf::analysis::scaling {
namespace {

// One step of an interval's path: enough to tell siblings apart and to find the same interval in
// another run of the program (the tree's identity, without the end line a collector may miss).
std::string path_step(const IntervalIdentity& id) {
  return fmt::format("{}:{}@{}:{}={}", id.kind, id.name, id.file, id.line, id.value);
}

std::map<LossComponent, double> losses_of(const Characteristics& c) {
  return {{LossComponent::communication, c.communication},
          {LossComponent::idle, c.idle_time},
          {LossComponent::insufficient_parallelism, c.insufficient_parallelism},
          {LossComponent::synchronization, c.desync + c.waiting},
          {LossComponent::load_imbalance, c.load_imbalance}};
}

}  // namespace

RunSample sample_run(const RunData& run, const Analysis& analysis) {
  RunSample sample;
  sample.directory = run.directory.string();
  const IntervalTree& tree = analysis.tree();
  if (run.run_info && run.run_info->sweep) {
    sample.processors = static_cast<double>(run.run_info->sweep->processors);
    sample.unit = run.run_info->sweep->unit;
    sample.repetition = run.run_info->sweep->repetition;
  } else {
    const auto processors = analysis.intervals.empty() ? 1 : analysis.intervals[0].characteristics.processors;
    sample.processors = static_cast<double>(processors == 0 ? 1 : processors);
    sample.unit = fmt::format("{}s", unit_name(analysis.unit));
  }
  if (run.run_info) sample.parameters = run.run_info->parameters;
  std::vector<std::string> keys(tree.intervals.size());
  for (std::size_t i = 0; i < tree.intervals.size() && i < analysis.intervals.size(); ++i) {
    const MergedInterval& interval = tree.intervals[i];
    keys[i] =
        i == 0 ? path_step(interval.identity) : keys[interval.parent] + "/" + path_step(interval.identity);
    const Characteristics& c = analysis.intervals[i].characteristics;
    if (c.processors == 0) continue;  // not executed in this run
    sample.intervals.push_back({.key = keys[i],
                                .identity = interval.identity,
                                .level = interval.level,
                                .execution_time = c.execution_time,
                                .losses = losses_of(c)});
  }
  return sample;
}

}  // namespace parperf::analysis::scaling
