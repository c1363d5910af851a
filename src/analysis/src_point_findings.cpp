#include "analysis/src_point_findings.hpp"

#include "analysis/finding_thresholds.hpp"
#include "analysis/mpi_classes.hpp"
#include "format/records.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

bool is(std::uint32_t kind, SiteKind k) { return kind == static_cast<std::uint32_t>(k); }

bool is_collective(MpiClass c) {
  return c == MpiClass::barrier || c == MpiClass::broadcast || c == MpiClass::reduction ||
         c == MpiClass::all_to_all || c == MpiClass::gather_scatter;
}

// The rank the others wait for at a collective: the one that arrived last in the most matched
// instances. Without counted instances (profiles of older runtimes), the rank that waited least
// there (the least synchronization: max_q a_q − a_p is smallest for the latest arriver), which is
// evidence of a different number, named so by `last_arrival_share` staying out of the evidence.
void name_late_rank(Finding& finding, const SrcPoint& p) {
  const RankAtSite* late = nullptr;
  for (const RankAtSite& r : p.ranks)
    if (r.last_arrivals > 0 && (!late || r.last_arrivals > late->last_arrivals)) late = &r;
  if (late) {
    finding.late_rank = *late;
    finding.evidence.push_back({"late_rank", static_cast<double>(late->rank)});
    finding.evidence.push_back({"last_arrivals", static_cast<double>(late->last_arrivals)});
    finding.evidence.push_back({"matched_instances", static_cast<double>(late->matched_instances)});
    finding.evidence.push_back(
        {"last_arrival_share", static_cast<double>(late->last_arrivals) /
                                   static_cast<double>(std::max<std::uint64_t>(1, late->matched_instances))});
    return;
  }
  for (const RankAtSite& r : p.ranks)
    if (!late || r.synchronization < late->synchronization) late = &r;
  if (!late) return;
  finding.late_rank = *late;
  finding.evidence.push_back({"late_rank", static_cast<double>(late->rank)});
  finding.evidence.push_back({"late_rank_synchronization", late->synchronization});
}

// An MPI call site, in the terms of the communication pattern behind the loss. A window's fences are
// matched across its group as a collective's instances are (docs/mpi.md): their loss is the arrivals'.
void classify_mpi(Finding& finding, const SrcPoint& p, MpiClass cls) {
  const bool instances = is_collective(cls) || is(p.identity.kind, SiteKind::mpi_one_sided_sync);
  if (instances && p.synchronization > 0 && p.arrival_spread > 0) {
    finding.kind = FindingKind::mpi_collective_arrival;
    finding.evidence.push_back({"arrival_spread", p.arrival_spread});
    finding.evidence.push_back({"synchronization", p.synchronization});
    name_late_rank(finding, p);
    return;
  }
  const RankAtSite* worst = nullptr;
  for (const RankAtSite& r : p.ranks)
    if (!worst || r.real_sync > worst->real_sync) worst = &r;
  if (worst && worst->real_sync > 0 && p.wait >= p.starts) {
    finding.kind = FindingKind::mpi_waits_for_partner;
    finding.waiting_rank = *worst;
    finding.evidence.push_back({"waiting_rank", static_cast<double>(worst->rank)});
    finding.evidence.push_back({"real_sync", worst->real_sync});
    return;
  }
  finding.kind = FindingKind::mpi_call_cost;
  finding.evidence.push_back({"starts", p.starts});
  finding.evidence.push_back({"real_sync", p.wait});
}

// The share of the enclosing interval's wall-clock time its threads spent on a CPU, when the OS CPU
// reads can be trusted for it (finding_thresholds.hpp); none otherwise.
std::optional<double> enclosing_on_cpu_share(const SrcPoint& p) {
  if (p.enclosing_cpu <= 0 || p.enclosing_wall <= 0 || p.enclosing_entries == 0) return std::nullopt;
  if (p.enclosing_wall / static_cast<double>(p.enclosing_entries) < kMinMeanEntrySeconds) return std::nullopt;
  return p.enclosing_cpu / p.enclosing_wall;
}

// The implicit or join barrier of a construct. Its threads wait there for the last to arrive, and
// the cause must agree with the work they did before it (SrcPoint::imbalance, max/mean):
//  - unbalanced beyond kBalancedMaxOverMean: unbalanced work (a loop: schedule(dynamic));
//  - balanced, with its threads off the CPU for more than (1 − kRanThroughoutCpuShare) of the
//    enclosing region's wall-clock time: preemption, the late thread was not running;
//  - balanced otherwise (or no work figure): the threads arrive at different times, cause unseen.
void classify_construct_barrier(Finding& finding, const SrcPoint& p) {
  const bool loop = is(p.identity.construct_kind, SiteKind::omp_loop) ||
                    (p.combined_construct && is(p.combined_construct->kind, SiteKind::omp_loop));
  if (p.imbalance > 0) finding.evidence.push_back({"max_over_mean", p.imbalance});
  if (p.imbalance > kBalancedMaxOverMean) {
    finding.kind = FindingKind::unbalanced_barrier;
    if (loop) finding.remedy = Remedy::dynamic_schedule;
    return;
  }
  const std::optional<double> on_cpu = enclosing_on_cpu_share(p);
  if (p.imbalance > 0 && on_cpu && *on_cpu < kRanThroughoutCpuShare) {
    finding.kind = FindingKind::preemption;
    finding.remedy = Remedy::fewer_threads_than_cores;
    finding.evidence.push_back({"on_cpu_share", *on_cpu});
    finding.evidence.push_back({"off_cpu", p.enclosing_wall - p.enclosing_cpu});
    return;
  }
  finding.kind = FindingKind::late_arrival_barrier;
  if (on_cpu) finding.evidence.push_back({"on_cpu_share", *on_cpu});
}

// An OpenMP synchronization point, by what its threads wait for.
void classify_openmp(Finding& finding, const SrcPoint& p) {
  const auto kind = p.identity.kind;
  if (is(kind, SiteKind::omp_implicit_barrier) || is(kind, SiteKind::omp_join_barrier)) {
    classify_construct_barrier(finding, p);
  } else if (is(kind, SiteKind::omp_critical)) {
    finding.kind = FindingKind::critical_contention;
    finding.remedy = Remedy::shorten_critical_section;
    finding.evidence.push_back({"entries", static_cast<double>(p.count)});
    finding.evidence.push_back({"mean_wait", p.count ? p.wait / static_cast<double>(p.count) : 0.0});
  } else if (is(kind, SiteKind::omp_lock) || is(kind, SiteKind::omp_nest_lock)) {
    finding.kind = FindingKind::lock_contention;
    finding.evidence.push_back({"acquisitions", static_cast<double>(p.count)});
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

void classify_src_point(Finding& finding, const SrcPoint& point) {
  finding.evidence.push_back({"lost", point.lost()});
  finding.evidence.push_back({"share", finding.share});
  if (const auto cls = mpi_class(point.identity.kind)) {
    classify_mpi(finding, point, *cls);
  } else {
    classify_openmp(finding, point);
  }
}

}  // namespace parperf::analysis
