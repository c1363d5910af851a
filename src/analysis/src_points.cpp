#include "analysis/src_points.hpp"
#include "analysis/mpi_classes.hpp"
#include "analysis/seconds.hpp"

#include <algorithm>
#include <map>

#include "format/records.hpp"

namespace parperf::analysis {
namespace {

bool belongs_to_construct(const OperationIdentity& id) {
  using format::SiteKind;
  return id.kind == static_cast<std::uint32_t>(SiteKind::omp_implicit_barrier) ||
         id.kind == static_cast<std::uint32_t>(SiteKind::omp_join_barrier);
}

// Work per location in the construct: its time less the waiting at its own barrier.
double construct_imbalance(const MergedInterval& construct, const OperationIdentity& barrier) {
  std::vector<double> work;
  for (const LocationStats& s : construct.locations) {
    double waited = 0;
    for (const OperationFigures& op : s.operations)
      if (op.identity == barrier) waited += seconds(op.sync_ns + op.wait_ns);
    work.push_back(std::max(0.0, seconds(s.exec_ns()) - waited));
  }
  if (work.empty()) return 0;
  double sum = 0, max = 0;
  for (double w : work) sum += w, max = std::max(max, w);
  const double mean = sum / static_cast<double>(work.size());
  return mean > 0 ? max / mean : 0;
}

// The only work-sharing construct directly inside `region`, if it has exactly one.
std::optional<IntervalIdentity> single_construct(const IntervalTree& tree, const MergedInterval& region) {
  using format::SiteKind;
  std::optional<IntervalIdentity> found;
  for (std::size_t c : region.children) {
    const IntervalIdentity& id = tree.intervals[c].identity;
    const bool work_sharing = id.kind >= static_cast<std::uint32_t>(SiteKind::omp_loop) &&
                              id.kind <= static_cast<std::uint32_t>(SiteKind::omp_taskloop);
    if (!work_sharing) continue;
    if (found) return std::nullopt;
    // A construct with an implicit barrier of its own is not combined with the region.
    for (const LocationStats& s : tree.intervals[c].locations)
      for (const OperationFigures& op : s.operations)
        if (op.identity.kind == static_cast<std::uint32_t>(SiteKind::omp_implicit_barrier))
          return std::nullopt;
    found = id;
  }
  return found;
}

// The OS CPU time, wall-clock time and entries of the nearest interval from `index` up with CPU time
// reads, over `locations` (SrcPoint::enclosing_cpu).
void add_enclosing_cpu(SrcPoint& p, const IntervalTree& tree, std::size_t index) {
  for (std::size_t i = index;; i = tree.intervals[i].parent) {
    double cpu = 0, wall = 0;
    std::uint64_t entries = 0;
    for (const LocationStats& s : tree.intervals[i].locations) {
      if (!std::binary_search(p.locations.begin(), p.locations.end(), s.location)) continue;
      cpu += seconds(s.os_user_ns + s.os_sys_ns);
      wall += seconds(s.sum_ns + s.open_ns);
      entries += s.entries();
    }
    if (cpu > 0) {
      p.enclosing_cpu = cpu;
      p.enclosing_wall = wall;
      p.enclosing_entries = entries;
      return;
    }
    if (i == 0) return;
  }
}

void add_mpi(SrcPoint& p, const OperationFigures& op, MpiClass cls, std::int64_t rank) {
  p.synchronization += op.synchronization;
  p.time_variation += op.time_variation;
  p.overlap += seconds(op.overlap_ns);
  p.arrival_spread = std::max(p.arrival_spread, op.arrival_spread);
  p.bytes += op.bytes;
  auto at = std::lower_bound(p.ranks.begin(), p.ranks.end(), rank,
                             [](const RankAtSite& r, std::int64_t wanted) { return r.rank < wanted; });
  if (at == p.ranks.end() || at->rank != rank) at = p.ranks.insert(at, RankAtSite{.rank = rank});
  at->time += seconds(op.sum_ns);
  at->synchronization += op.synchronization;
  at->matched_instances += op.matched_instances;
  at->last_arrivals += op.last_arrivals;
  if (op.partner_min != format::kNoPartner)
    at->partner_min =
        at->partner_min == format::kNoPartner ? op.partner_min : std::min(at->partner_min, op.partner_min);
  at->partner_max = std::max(at->partner_max, op.partner_max);
  if (cls == MpiClass::management) return;  // not communication: nothing lost
  const std::uint64_t real_sync = std::min(op.wait_ns, op.sum_ns);
  p.wait += seconds(real_sync);
  p.wait_max = std::max(p.wait_max, std::min(seconds(op.wait_max_ns), seconds(op.max_ns)));
  p.starts += seconds(op.sum_ns - real_sync);
  at->real_sync += seconds(real_sync);
}

}  // namespace

std::vector<SrcPoint> src_points(const IntervalTree& tree) {
  std::map<OperationIdentity, SrcPoint> points;
  std::map<OperationIdentity, std::size_t> first_interval;  // where a construct's barrier was met
  for (std::size_t index = 0; index < tree.intervals.size(); ++index) {
    const MergedInterval& interval = tree.intervals[index];
    for (const LocationStats& stats : interval.locations) {
      for (const OperationFigures& op : stats.operations) {
        auto [it, inserted] = points.try_emplace(op.identity);
        SrcPoint& p = it->second;
        if (inserted) {
          p.identity = op.identity;
          p.interval = interval.identity;
          if (belongs_to_construct(op.identity)) {
            p.imbalance = construct_imbalance(interval, op.identity);
            first_interval[op.identity] = index;
          }
          if (op.identity.kind == static_cast<std::uint32_t>(format::SiteKind::omp_join_barrier))
            p.combined_construct = single_construct(tree, interval);
        }
        p.count += op.count;
        p.total += seconds(op.sum_ns);
        if (const std::optional<MpiClass> cls = mpi_class(op.identity.kind)) {
          add_mpi(p, op, *cls, stats.location.rank);
        } else {
          p.wait += seconds(op.wait_ns);
          p.wait_max = std::max(p.wait_max, seconds(op.wait_max_ns));
          p.sync += seconds(op.sync_ns);
          p.sync_max = std::max(p.sync_max, seconds(op.sync_max_ns));
        }
        if (std::find(p.locations.begin(), p.locations.end(), stats.location) == p.locations.end())
          p.locations.push_back(stats.location);
      }
    }
  }
  std::vector<SrcPoint> result;
  for (auto& [identity, point] : points) {
    std::sort(point.locations.begin(), point.locations.end());
    if (auto at = first_interval.find(identity); at != first_interval.end())
      add_enclosing_cpu(point, tree, at->second);
    result.push_back(std::move(point));
  }
  std::stable_sort(result.begin(), result.end(), [](const SrcPoint& a, const SrcPoint& b) {
    if (a.lost() != b.lost()) return a.lost() > b.lost();
    return a.total > b.total;
  });
  return result;
}

}  // namespace parperf::analysis
