#include "analysis/threads_off_cpu.hpp"

#include <map>
#include <set>

#include "analysis/finding_thresholds.hpp"
#include "analysis/seconds.hpp"

namespace parperf::analysis {
namespace {

// Said when less than half of the threads' time ran on a CPU, as an interval's off_cpu note is.
constexpr double kOnCpuShareWorthSaying = 0.5;
// More threads than cores is oversubscription only when the threads kept at least this share of the
// cores busy on average: threads that wanted a core. Sleeping or blocked threads leave the cores
// nearly idle however many there are; a loaded machine still gives the program a good part of them.
constexpr double kBusyCoresShare = 0.25;

}  // namespace

ThreadCpuTime thread_cpu_time(const IntervalTree& tree) {
  ThreadCpuTime time;
  // Per location, the intervals already summed: a nested one is part of its ancestor's time.
  std::map<Location, std::set<std::size_t>> summed;
  std::set<Location> threads;
  for (std::size_t i = 0; i < tree.intervals.size(); ++i) {
    const MergedInterval& interval = tree.intervals[i];
    for (const LocationStats& stats : interval.locations) {
      const std::uint64_t measured = stats.sum_ns + stats.open_ns;
      if (stats.context || measured == 0) continue;
      std::set<std::size_t>& done = summed[stats.location];
      bool nested = false;
      for (std::size_t a = interval.parent; i != 0 && !nested; a = tree.intervals[a].parent) {
        nested = done.count(a) > 0;
        if (a == 0) break;
      }
      if (nested) continue;
      done.insert(i);
      const std::uint64_t cpu = stats.os_user_ns + stats.os_sys_ns;
      if (cpu == 0) continue;  // not read: no CPU time at all means not measured
      threads.insert(stats.location);
      time.inside += seconds(measured);
      time.on_cpu += seconds(cpu);
      time.entries += stats.entries();
    }
  }
  time.threads = threads.size();
  return time;
}

std::optional<Finding> threads_off_cpu(const ThreadCpuTime& time, double execution_time,
                                       const std::optional<format::HostCores>& cores) {
  if (time.inside <= 0 || time.entries == 0 ||
      time.inside / static_cast<double>(time.entries) < kMinMeanEntrySeconds)
    return std::nullopt;
  const double on_cpu_share = time.on_cpu / time.inside;
  if (on_cpu_share >= kOnCpuShareWorthSaying) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::threads_off_cpu;
  finding.share = 1 - on_cpu_share;
  finding.on_cpu_share = on_cpu_share;
  finding.estimated_gain = time.inside - time.on_cpu;
  finding.evidence = {{"on_cpu_share", on_cpu_share},
                      {"threads", static_cast<double>(time.threads)},
                      {"thread_time", time.inside},
                      {"cpu_time", time.on_cpu}};
  const double cores_busy = execution_time > 0 ? time.on_cpu / execution_time : 0.0;
  if (execution_time > 0) finding.evidence.push_back({"cores_busy", cores_busy});
  if (cores) {
    const auto allowed = static_cast<double>(cores->allowed);
    finding.evidence.push_back({"cores", allowed});
    finding.evidence.push_back({"cores_online", static_cast<double>(cores->online)});
    if (static_cast<double>(time.threads) > allowed && cores_busy >= kBusyCoresShare * allowed)
      finding.remedy = Remedy::fewer_threads_than_cores;
  }
  return finding;
}

void add_threads_off_cpu(std::vector<Finding>& findings, Finding finding) {
  const bool oversubscribed = finding.remedy == Remedy::fewer_threads_than_cores;
  const bool dominates = oversubscribed && (findings.empty() || finding.share > findings.front().share);
  findings.insert(dominates ? findings.begin() : findings.end(), std::move(finding));
}

}  // namespace parperf::analysis
