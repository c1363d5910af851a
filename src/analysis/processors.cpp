#include "analysis/processors.hpp"
#include "analysis/seconds.hpp"

#include <algorithm>

namespace parperf::analysis {
namespace {

ProcessorInput thread_input(const IntervalTree& tree, const LocationStats& stats) {
  return ProcessorInput{
      .processor = processor_number(tree, stats.location, Unit::thread),
      .rank = stats.location.rank,
      .thread = stats.location.thread,
      .process_threads = 1,
      .entries = stats.entries(),
      .execution = seconds(stats.exec_ns()),
      .breakdown = stats.breakdown,
      .idle_within = 0,
      .os_cpu_user = seconds(stats.os_user_ns),
      .os_cpu_sys = seconds(stats.os_sys_ns),
  };
}

// `threads`: the thread processors of one process, all with entries.
ProcessorInput process_input(std::span<const ProcessorInput> threads) {
  ProcessorInput process;
  process.processor = threads.front().rank;
  process.rank = threads.front().rank;
  // The threads of the process that executed the interval: like processors, threads count only
  // where they took part.
  process.process_threads = static_cast<std::uint32_t>(threads.size());
  double exec_sum = 0;
  for (const ProcessorInput& t : threads) {
    process.entries += t.entries;
    process.execution = std::max(process.execution, t.execution);
    exec_sum += t.execution;
    process.breakdown += t.breakdown;
    process.os_cpu_user += t.os_cpu_user;
    process.os_cpu_sys += t.os_cpu_sys;
  }
  double n = static_cast<double>(threads.size());
  // Potential losses, overlap, start-up and shut-down belong to the calls that had them, whichever
  // thread made them (in a hybrid program, usually the master alone): the process's figure is their
  // sum. Averaged like the losses that make up exec_p, a funneled rank's synchronization would
  // shrink with its thread count.
  const TimeBreakdown sums = process.breakdown;
  process.breakdown *= 1.0 / n;
  process.breakdown.synchronization = sums.synchronization;
  process.breakdown.time_variation = sums.time_variation;
  process.breakdown.overlap = sums.overlap;
  process.breakdown.startup = sums.startup;
  process.breakdown.shutdown = sums.shutdown;
  process.idle_within = process.execution - exec_sum / n;
  return process;
}

}  // namespace

std::int64_t processor_number(const IntervalTree& tree, Location location, Unit unit) {
  if (unit == Unit::rank) return location.rank;
  if (tree.threads_per_rank.size() <= 1) return location.thread;
  auto it = std::lower_bound(tree.locations.begin(), tree.locations.end(), location);
  return it - tree.locations.begin();
}

Unit default_unit(std::int64_t process_count) { return process_count > 1 ? Unit::rank : Unit::thread; }

std::string_view unit_name(Unit unit) { return unit == Unit::rank ? "rank" : "thread"; }

std::optional<Unit> parse_unit(std::string_view name) {
  if (name == "thread") return Unit::thread;
  if (name == "rank") return Unit::rank;
  return std::nullopt;
}

std::vector<ProcessorInput> processor_inputs(const IntervalTree& tree, const MergedInterval& interval,
                                             Unit unit) {
  std::vector<ProcessorInput> threads;
  for (const LocationStats& stats : interval.locations) {
    if (stats.participated()) threads.push_back(thread_input(tree, stats));
  }
  if (unit == Unit::thread) {
    std::sort(threads.begin(), threads.end(),
              [](const ProcessorInput& a, const ProcessorInput& b) { return a.processor < b.processor; });
    return threads;
  }
  // interval.locations is sorted by (rank, thread), so each process's threads are adjacent.
  std::vector<ProcessorInput> processes;
  std::span<const ProcessorInput> all(threads);
  for (std::size_t begin = 0, end = 0; begin < all.size(); begin = end) {
    while (end < all.size() && all[end].rank == all[begin].rank) ++end;
    processes.push_back(process_input(all.subspan(begin, end - begin)));
  }
  return processes;
}

std::optional<RankTime> slowest_rank(const IntervalTree& tree) {
  if (tree.intervals.empty()) return std::nullopt;
  // Each rank's longest thread; locations are sorted by rank.
  std::vector<RankTime> ranks;
  for (const LocationStats& stats : tree.intervals[0].locations) {
    const double execution = seconds(stats.exec_ns());
    if (ranks.empty() || ranks.back().rank != stats.location.rank)
      ranks.push_back(RankTime{stats.location.rank, execution});
    else
      ranks.back().execution_time = std::max(ranks.back().execution_time, execution);
  }
  if (ranks.empty()) return std::nullopt;
  // max_element keeps the first, the lowest rank, on a tie.
  const auto by_time = [](const RankTime& a, const RankTime& b) {
    return a.execution_time < b.execution_time;
  };
  RankTime slowest = *std::max_element(ranks.begin(), ranks.end(), by_time);
  slowest.spread =
      slowest.execution_time - std::min_element(ranks.begin(), ranks.end(), by_time)->execution_time;
  return slowest;
}

}  // namespace parperf::analysis
