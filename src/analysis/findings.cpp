#include "analysis/findings.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "analysis/mpi_classes.hpp"
#include "format/records.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

// Losses below this share of total time are noise (timer reads, scheduling), not a finding.
constexpr double kSignificantLoss = 0.01;

// The characteristics are wall-clock based, so a thread that sleeps or blocks in the interval
// counts as busy; its OS CPU time tells otherwise. Said only where the CPU-time reads, taken at most
// every PARPERF_CPU_SAMPLE_US (100 us) at interval boundaries, are dense enough to be trusted:
// entries lasting 2 ms or more on average.
constexpr double kMinMeanEntrySeconds = 0.002;
constexpr double kOnCpuShareWorthSaying = 0.5;

// The main findings: at most this many SRC points, each losing at least this share of the thread time.
constexpr std::size_t kMostPoints = 3;
constexpr double kWorthSaying = 0.01;

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
  }
  // When the processors' productive times differ about as much as their execution times, the
  // early ones simply had less work; otherwise the slow one spent its extra time losing it.
  finding.imbalance_explains_idle = c.load_imbalance >= 0.5 * between;
  return finding;
}

Finding largest_loss(const Characteristics& c, const Comparative& comparative) {
  if (c.lost_time < kSignificantLoss * c.total_time) {
    Finding finding;
    finding.kind = FindingKind::no_significant_loss;
    finding.efficiency = c.efficiency;
    finding.share = c.lost_time / c.total_time;
    finding.estimated_gain = c.lost_time;
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
  }
  finding.share = largest->first / c.total_time;
  finding.estimated_gain = largest->first;
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
  return finding;
}

// An explanation rather than a loss: it recovers nothing by itself.
std::optional<Finding> off_cpu(const Characteristics& c, const Comparative& comparative) {
  const double processors = static_cast<double>(c.processors);
  const double time_inside = comparative[Figure::execution_time].mean * processors;
  const double entries = comparative[Figure::entries].mean * processors;
  const double on_cpu = c.os_cpu_user + c.os_cpu_sys;
  if (time_inside <= 0 || entries <= 0 || time_inside / entries < kMinMeanEntrySeconds) return std::nullopt;
  // No CPU time at all means not measured (profiles built by other tools, huge sampling spacing)
  // far more often than threads that never ran: say nothing rather than guess.
  if (on_cpu <= 0 || on_cpu >= kOnCpuShareWorthSaying * time_inside) return std::nullopt;
  Finding finding;
  finding.kind = FindingKind::off_cpu;
  finding.on_cpu_share = on_cpu / time_inside;
  return finding;
}

bool is(std::uint32_t kind, SiteKind k) { return kind == static_cast<std::uint32_t>(k); }

bool is_collective(MpiClass c) {
  return c == MpiClass::barrier || c == MpiClass::broadcast || c == MpiClass::reduction ||
         c == MpiClass::all_to_all || c == MpiClass::gather_scatter;
}

// An MPI call site, in the terms of the communication pattern behind the loss.
void classify_mpi(Finding& finding, const SrcPoint& p, MpiClass cls) {
  if (is_collective(cls) && p.synchronization > 0 && p.arrival_spread > 0) {
    finding.kind = FindingKind::mpi_collective_arrival;
    return;
  }
  const RankAtSite* worst = nullptr;
  for (const RankAtSite& r : p.ranks)
    if (!worst || r.real_sync > worst->real_sync) worst = &r;
  if (worst && worst->real_sync > 0 && p.wait >= p.starts) {
    finding.kind = FindingKind::mpi_waits_for_partner;
    finding.waiting_rank = *worst;
    return;
  }
  finding.kind = FindingKind::mpi_call_cost;
}

// An OpenMP synchronization point, by what its threads wait for.
void classify_openmp(Finding& finding, const SrcPoint& p) {
  const auto kind = p.identity.kind;
  if (is(kind, SiteKind::omp_implicit_barrier) || is(kind, SiteKind::omp_join_barrier)) {
    finding.kind = p.imbalance > 0 ? FindingKind::unbalanced_barrier : FindingKind::late_arrival_barrier;
    const bool loop = is(p.identity.construct_kind, SiteKind::omp_loop) ||
                      (p.combined_construct && is(p.combined_construct->kind, SiteKind::omp_loop));
    if (loop) finding.remedy = Remedy::dynamic_schedule;
  } else if (is(kind, SiteKind::omp_critical)) {
    finding.kind = FindingKind::critical_contention;
    finding.remedy = Remedy::shorten_critical_section;
  } else if (is(kind, SiteKind::omp_lock) || is(kind, SiteKind::omp_nest_lock)) {
    finding.kind = FindingKind::lock_contention;
  } else if (is(kind, SiteKind::omp_ordered)) {
    finding.kind = FindingKind::ordered_wait;
  } else if (is(kind, SiteKind::omp_barrier) || is(kind, SiteKind::omp_implementation_barrier)) {
    finding.kind = FindingKind::barrier_arrival;
  } else if (is(kind, SiteKind::omp_taskwait) || is(kind, SiteKind::omp_taskgroup)) {
    finding.kind = FindingKind::task_wait;
  } else {
    finding.kind = FindingKind::synchronization_loss;
  }
}

}  // namespace

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
  if (auto note = off_cpu(c, comparative)) findings.push_back(std::move(*note));
  return findings;
}

std::vector<Finding> main_findings(const Characteristics& program, const std::vector<SrcPoint>& points,
                                   const std::vector<LoopBalance>& loops) {
  std::vector<Finding> findings;
  if (program.total_time <= 0) return findings;
  for (const SrcPoint& p : points) {
    if (findings.size() == kMostPoints) break;
    const double share = p.lost() / program.total_time;
    if (share < kWorthSaying) break;  // sorted: the rest lose less
    Finding finding;
    finding.src_point = p;
    finding.share = share;
    finding.estimated_gain = p.lost();
    if (const auto cls = mpi_class(p.identity.kind)) {
      classify_mpi(finding, p, *cls);
    } else {
      classify_openmp(finding, p);
    }
    findings.push_back(std::move(finding));
  }
  std::vector<Finding> unbalanced;
  for (const LoopBalance& loop : loops) {
    auto finding = unbalanced_loop(loop, program.total_time);
    if (finding && finding->share >= kWorthSaying) unbalanced.push_back(std::move(*finding));
  }
  std::stable_sort(unbalanced.begin(), unbalanced.end(),
                   [](const Finding& a, const Finding& b) { return a.estimated_gain > b.estimated_gain; });
  if (unbalanced.size() > kMostPoints) unbalanced.resize(kMostPoints);
  for (Finding& f : unbalanced) findings.push_back(std::move(f));
  const double sequential = program.insufficient_parallelism / program.total_time;
  if (sequential >= kWorthSaying) {
    Finding finding;
    finding.kind = FindingKind::sequential_code;
    finding.share = sequential;
    finding.estimated_gain = program.insufficient_parallelism;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace parperf::analysis
