#include "analysis/sampled_cause.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/finding_thresholds.hpp"

namespace parperf::analysis {
namespace {

// The intervals and everything nested in them, each once.
std::set<std::size_t> subtrees(const IntervalTree& tree, const std::vector<std::size_t>& roots) {
  std::set<std::size_t> all;
  std::vector<std::size_t> pending(roots.begin(), roots.end());
  while (!pending.empty()) {
    const std::size_t i = pending.back();
    pending.pop_back();
    if (i >= tree.intervals.size() || !all.insert(i).second) continue;
    for (std::size_t child : tree.intervals[i].children) pending.push_back(child);
  }
  return all;
}

struct GroupTally {
  std::uint64_t samples = 0;
  std::map<std::string, std::uint64_t> self;
};

struct Place {
  std::uint64_t self = 0;  // in the interval that decided it
  std::string file;
  std::int64_t line = 0;
};

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

ComparedFunction compared(const std::string& name, const GroupTally& late, const GroupTally& waiting,
                          const std::map<std::string, Place>& places) {
  ComparedFunction f;
  f.function = name;
  if (auto at = places.find(name); at != places.end()) f.file = at->second.file, f.line = at->second.line;
  if (auto at = late.self.find(name); at != late.self.end()) f.late_samples = at->second;
  if (auto at = waiting.self.find(name); at != waiting.self.end()) f.waiting_samples = at->second;
  f.late_share = share(f.late_samples, late.samples);
  f.waiting_share = share(f.waiting_samples, waiting.samples);
  return f;
}

}  // namespace

WaitGroups split_by_wait(const std::vector<ProcessorValue>& waited) {
  WaitGroups groups;
  if (waited.size() < 2) return groups;
  const auto [least, most] = std::minmax_element(
      waited.begin(), waited.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  if (most->value <= least->value) return groups;
  const double midpoint = (least->value + most->value) / 2;
  for (const ProcessorValue& p : waited)
    (p.value < midpoint ? groups.late : groups.waiting).push_back(p.processor);
  return groups;
}

std::optional<SampledCause> sampled_cause(const SampleProfile& samples, const IntervalTree& tree,
                                          const std::vector<std::size_t>& intervals,
                                          const std::vector<std::int64_t>& late,
                                          const std::vector<std::int64_t>& waiting, Unit unit) {
  if (!samples.sampled || late.empty() || waiting.empty()) return std::nullopt;
  const std::set<std::size_t> compared_intervals = subtrees(tree, intervals);
  const std::set<std::int64_t> late_set(late.begin(), late.end()),
      waiting_set(waiting.begin(), waiting.end());
  GroupTally late_tally, waiting_tally;
  std::map<std::string, Place> places;  // where each function's file:line comes from
  for (const IntervalSamples& interval : samples.intervals) {
    if (!compared_intervals.count(interval.interval)) continue;
    for (const ProcessorSamples& p : interval.processor_samples) {
      GroupTally* group = late_set.count(p.processor)      ? &late_tally
                          : waiting_set.count(p.processor) ? &waiting_tally
                                                           : nullptr;
      if (!group) continue;
      group->samples += p.samples;
      for (const auto& [function, self] : p.self) group->self[function] += self;
    }
    for (const SampledFunction& f : interval.functions) {
      Place& place = places[f.function];
      if (place.file.empty() || f.self > place.self) place = {f.self, f.file, f.line};
    }
  }
  if (late_tally.samples < kMinSamplesToBlame) return std::nullopt;

  SampledCause cause;
  cause.unit = unit;
  cause.wall_clock = samples.wall_clock;
  cause.intervals = intervals;
  cause.late = late;
  cause.waiting = waiting;
  cause.late_samples = late_tally.samples;
  cause.waiting_samples = waiting_tally.samples;
  for (const auto& [name, self] : late_tally.self) {
    ComparedFunction f = compared(name, late_tally, waiting_tally, places);
    if (f.late_share - f.waiting_share >= kBlameShareGap) cause.functions.push_back(std::move(f));
  }
  std::stable_sort(cause.functions.begin(), cause.functions.end(), [](const auto& a, const auto& b) {
    return a.late_share - a.waiting_share > b.late_share - b.waiting_share;
  });
  if (cause.functions.size() > kMostBlamedFunctions) cause.functions.resize(kMostBlamedFunctions);
  if (cause.functions.empty()) return std::nullopt;
  // Where the waiting processors sit: the same test the other way round, on enough of their samples.
  // Only wall-clock samples cover the whole wait: CPU-time samples miss a thread that sleeps while it
  // waits, and its own work would then look like the place it waits in.
  if (samples.wall_clock && waiting_tally.samples >= kMinSamplesToBlame) {
    for (const auto& [name, self] : waiting_tally.self) {
      ComparedFunction f = compared(name, late_tally, waiting_tally, places);
      const double gap = f.waiting_share - f.late_share;
      if (gap >= kBlameShareGap && f.late_share <= kLateHardlyRuns &&
          (!cause.waiting_in || gap > cause.waiting_in->waiting_share - cause.waiting_in->late_share))
        cause.waiting_in = std::move(f);
    }
  }
  return cause;
}

}  // namespace parperf::analysis
