#include "analysis/findings.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "analysis/finding_thresholds.hpp"

namespace parperf::analysis {
namespace {

// The interval's processors' productive times, max over mean: whether waiting for the slowest can
// be blamed on unequal work (finding_thresholds.hpp). 0 without a mean.
double productive_max_over_mean(const Comparative& comparative) {
  const Extreme& productive = comparative[Figure::productive_time];
  return productive.mean > 0 ? productive.max / productive.mean : 0.0;
}

// The share of the time inside the interval that ran on a CPU, when its OS CPU reads can be trusted
// (dense enough, and taken at all: no CPU time at all means not measured, by profiles of other
// tools or a huge sampling spacing, far more often than threads that never ran).
std::optional<double> on_cpu_share(const Characteristics& c, const Comparative& comparative) {
  const double processors = static_cast<double>(c.processors);
  const double time_inside = comparative[Figure::execution_time].mean * processors;
  const double entries = comparative[Figure::entries].mean * processors;
  const double on_cpu = c.os_cpu_user + c.os_cpu_sys;
  if (time_inside <= 0 || entries <= 0 || time_inside / entries < kMinMeanEntrySeconds) return std::nullopt;
  if (on_cpu <= 0) return std::nullopt;
  return on_cpu / time_inside;
}

Finding idle_finding(const Characteristics& c, const Comparative& comparative) {
  Finding finding;
  const double within = c.idle_within_processes;
  const double between = c.idle_time - within;
  if (within > between) {
    finding.kind = FindingKind::idle_within_processes;
    return finding;
  }
  finding.kind = FindingKind::idle_between_processors;
  const Extreme& execution = comparative[Figure::execution_time];
  if (execution.min_processor && execution.max_processor) {
    finding.fastest_processor = execution.min_processor;
    finding.slowest_processor = execution.max_processor;
    finding.execution_spread = execution.max - execution.min;
    finding.evidence.push_back({"execution_spread", finding.execution_spread});
  }
  // When the processors' productive times differ about as much as their execution times, the
  // early ones simply had less work; otherwise the slow one spent its extra time losing it.
  finding.imbalance_explains_idle = c.load_imbalance >= 0.5 * between;
  finding.evidence.push_back({"load_imbalance", c.load_imbalance});
  return finding;
}

// Waiting for the others (idle time, desync, OpenMP waiting) whose cause is not the work: the
// processors' productive times are balanced and their threads were off the CPU
// (finding_thresholds.hpp). The finding keeps the loss it explains, its share and its gain.
bool waits_for_others(FindingKind kind) {
  return kind == FindingKind::idle_between_processors || kind == FindingKind::idle_within_processes ||
         kind == FindingKind::desync || kind == FindingKind::openmp_waiting;
}

void blame_preemption(Finding& finding, const Characteristics& c, const Comparative& comparative) {
  if (!waits_for_others(finding.kind)) return;
  const double balance = productive_max_over_mean(comparative);
  const std::optional<double> on_cpu = on_cpu_share(c, comparative);
  if (balance <= 0 || balance > kBalancedMaxOverMean || !on_cpu || *on_cpu >= kRanThroughoutCpuShare) return;
  finding.explains = finding.kind;
  finding.kind = FindingKind::preemption;
  finding.remedy = Remedy::fewer_threads_than_cores;
  finding.on_cpu_share = *on_cpu;
  finding.evidence.push_back({"on_cpu_share", *on_cpu});
}

Finding largest_loss(const Characteristics& c, const Comparative& comparative) {
  if (c.lost_time < kSignificantLoss * c.total_time) {
    Finding finding;
    finding.kind = FindingKind::no_significant_loss;
    finding.efficiency = c.efficiency;
    finding.share = c.lost_time / c.total_time;
    finding.estimated_gain = c.lost_time;
    finding.evidence = {{"efficiency", c.efficiency}, {"share", finding.share}};
    return finding;
  }
  std::array<std::pair<double, FindingKind>, 5> losses = {
      {{c.idle_time, FindingKind::idle_between_processors},
       {c.insufficient_parallelism, FindingKind::insufficient_parallelism},
       {c.communication, FindingKind::communication},
       {c.desync, FindingKind::desync},
       {c.waiting, FindingKind::openmp_waiting}}};
  // Stable on ties, so the order above decides between equal losses.
  auto largest = std::max_element(losses.begin(), losses.end(),
                                  [](const auto& a, const auto& b) { return a.first < b.first; });
  Finding finding;
  finding.kind = largest->second;
  if (finding.kind == FindingKind::idle_between_processors) finding = idle_finding(c, comparative);
  if (finding.kind == FindingKind::communication) {
    finding.real_sync = c.communication_real_sync;
    finding.starts = c.communication_starts;
    finding.evidence.push_back({"real_sync", c.communication_real_sync});
    finding.evidence.push_back({"starts", c.communication_starts});
  }
  finding.share = largest->first / c.total_time;
  finding.estimated_gain = largest->first;
  finding.evidence.push_back({"share", finding.share});
  if (waits_for_others(finding.kind))
    finding.evidence.push_back({"productive_max_over_mean", productive_max_over_mean(comparative)});
  blame_preemption(finding, c, comparative);
  return finding;
}

// Synchronization and time variation are potential losses, outside Lost time, so they never are the
// largest loss; yet processors arriving at collectives at different times is the usual cause of the
// communication loss of an MPI program. Said whenever it is significant. Balanced arrivals would
// recover the synchronization.
std::optional<Finding> collective_arrival(const Characteristics& c) {
  const bool synchronization = c.synchronization >= kSignificantLoss * c.total_time;
  const bool variation = c.time_variation >= kSignificantLoss * c.total_time;
  if (!synchronization && !variation) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::collective_arrival;
  if (synchronization) finding.synchronization = c.synchronization;
  if (variation) finding.time_variation = c.time_variation;
  finding.estimated_gain = synchronization ? c.synchronization : 0;
  finding.share = finding.estimated_gain / c.total_time;
  finding.evidence = {{"synchronization", c.synchronization}, {"time_variation", c.time_variation}};
  return finding;
}

// An explanation rather than a loss: it recovers nothing by itself. Said when less than half of the
// time inside ran on a CPU: threads sleeping, blocked or preempted.
constexpr double kOnCpuShareWorthSaying = 0.5;

std::optional<Finding> off_cpu(const Characteristics& c, const Comparative& comparative) {
  const std::optional<double> on_cpu = on_cpu_share(c, comparative);
  if (!on_cpu || *on_cpu >= kOnCpuShareWorthSaying) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::off_cpu;
  finding.on_cpu_share = *on_cpu;
  finding.evidence = {{"on_cpu_share", *on_cpu}};
  return finding;
}

}  // namespace

double Finding::evidence_value(std::string_view key) const {
  for (const Evidence& e : evidence)
    if (e.key == key) return e.value;
  return 0;
}

std::optional<Finding> unbalanced_loop(const LoopBalance& loop, double base_total_time) {
  if (loop.count < 2) return std::nullopt;
  const bool several = loop.processors.size() > 1;
  const bool processors_unbalanced = several && loop.processor_imbalance > loop.alpha * loop.processor_mean;
  if (loop.balanced && !processors_unbalanced) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::unbalanced_loop;
  finding.remedy = several ? Remedy::dynamic_schedule : Remedy::cost_aware_partition;
  finding.estimated_gain = loop.balance_gain;
  finding.share = base_total_time > 0 ? loop.balance_gain / base_total_time : 0.0;
  finding.loop = loop;
  finding.evidence = {{"share", finding.share},
                      {"balance_degree", loop.degree},
                      {"relative_degree", loop.relative_degree},
                      {"alpha", loop.alpha},
                      {"processor_imbalance", loop.processor_imbalance}};
  return finding;
}

std::vector<Finding> diagnose(const Characteristics& c, const Comparative& comparative) {
  Finding finding;
  if (c.processors == 0) {
    finding.kind = FindingKind::not_executed;
    return {finding};
  }
  if (c.total_time <= 0) {
    finding.kind = FindingKind::no_time_recorded;
    return {finding};
  }
  std::vector<Finding> findings{largest_loss(c, comparative)};
  if (auto note = collective_arrival(c)) findings.push_back(std::move(*note));
  // Preemption already names the share that ran on a CPU.
  if (findings[0].kind != FindingKind::preemption)
    if (auto note = off_cpu(c, comparative)) findings.push_back(std::move(*note));
  return findings;
}

}  // namespace parperf::analysis
