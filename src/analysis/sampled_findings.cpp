#include "analysis/sampled_findings.hpp"

#include <algorithm>
#include <map>

#include "analysis/sampled_cause.hpp"
#include "analysis/seconds.hpp"
#include "format/records.hpp"

namespace parperf::analysis {
namespace {

std::vector<std::size_t> intervals_named(const IntervalTree& tree, const IntervalIdentity& identity) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < tree.intervals.size(); ++i)
    if (tree.intervals[i].identity == identity) found.push_back(i);
  return found;
}

std::vector<ProcessorValue> values_of(const std::map<std::int64_t, double>& by_processor) {
  std::vector<ProcessorValue> values;
  for (const auto& [processor, value] : by_processor) values.push_back({processor, value});
  return values;
}

// Each processor's waiting at an OpenMP synchronization point, over every interval it occurred in.
std::vector<ProcessorValue> barrier_waits(const IntervalTree& tree, const OperationIdentity& point,
                                          Unit unit) {
  std::map<std::int64_t, double> waited;
  for (const MergedInterval& interval : tree.intervals)
    for (const LocationStats& s : interval.locations)
      for (const OperationFigures& op : s.operations)
        if (op.identity == point)
          waited[processor_number(tree, s.location, unit)] += seconds(op.wait_ns + op.sync_ns);
  return values_of(waited);
}

bool is_openmp_barrier_finding(FindingKind kind) {
  return kind == FindingKind::unbalanced_barrier || kind == FindingKind::late_arrival_barrier ||
         kind == FindingKind::barrier_arrival;
}

// The groups a finding names, and the intervals whose samples compare them; none for other findings.
struct Comparison {
  std::vector<std::size_t> intervals;
  WaitGroups groups;
};

std::optional<Comparison> comparison_for(const Finding& f, const IntervalTree& tree,
                                         const std::vector<IntervalAnalysis>& analyses, Unit unit) {
  Comparison c;
  if (f.src_point && is_openmp_barrier_finding(f.kind)) {
    c.intervals = intervals_named(tree, f.src_point->interval);
    c.groups = split_by_wait(barrier_waits(tree, f.src_point->identity, unit));
  } else if (f.src_point && f.kind == FindingKind::mpi_collective_arrival && f.late_rank &&
             unit == Unit::rank) {
    c.intervals = intervals_named(tree, f.src_point->interval);
    c.groups.late = {f.late_rank->rank};
    for (const RankAtSite& r : f.src_point->ranks)
      if (r.rank != f.late_rank->rank) c.groups.waiting.push_back(r.rank);
  } else if (f.src_point && f.kind == FindingKind::mpi_waits_for_partner && f.waiting_rank &&
             unit == Unit::rank) {
    const RankAtSite& w = *f.waiting_rank;
    if (w.partner_min == format::kNoPartner || w.partner_max < w.partner_min) return std::nullopt;
    c.intervals = intervals_named(tree, f.src_point->interval);
    c.groups.waiting = {w.rank};
    for (std::int64_t r = w.partner_min; r <= w.partner_max; ++r)
      if (r != w.rank && tree.threads_per_rank.count(r)) c.groups.late.push_back(r);
  } else if (f.loop) {
    std::vector<ProcessorValue> idle;  // what each processor would wait for the slowest
    for (const ProcessorIterations& p : f.loop->processors)
      idle.push_back({p.processor, f.loop->processor_max - p.time});
    c.intervals = {f.loop->interval};
    c.groups = split_by_wait(idle);
  } else if (f.kind == FindingKind::interval_loss && f.interval) {
    c.intervals = intervals_named(tree, *f.interval);
    std::map<std::int64_t, double> lost;
    for (std::size_t i : c.intervals)
      for (const ProcessorFigures& p : analyses[i].processors) lost[p.processor] += p.lost_time;
    c.groups = split_by_wait(values_of(lost));
  } else {
    return std::nullopt;
  }
  if (c.intervals.empty() || c.groups.late.empty() || c.groups.waiting.empty()) return std::nullopt;
  return c;
}

}  // namespace

void add_sampled_causes(std::vector<Finding>& findings, const IntervalTree& tree,
                        const std::vector<IntervalAnalysis>& intervals, const SampleProfile& samples,
                        Unit unit) {
  if (!samples.sampled) return;
  for (Finding& f : findings) {
    const std::optional<Comparison> c = comparison_for(f, tree, intervals, unit);
    if (!c) continue;
    f.sampled_cause = sampled_cause(samples, tree, c->intervals, c->groups.late, c->groups.waiting, unit);
    if (!f.sampled_cause) continue;
    const ComparedFunction& top = f.sampled_cause->functions.front();
    f.evidence.push_back({"late_samples", static_cast<double>(f.sampled_cause->late_samples)});
    f.evidence.push_back({"waiting_samples", static_cast<double>(f.sampled_cause->waiting_samples)});
    f.evidence.push_back({"function_late_share", top.late_share});
    f.evidence.push_back({"function_waiting_share", top.waiting_share});
  }
}

}  // namespace parperf::analysis
