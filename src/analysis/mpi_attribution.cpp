#include "analysis/mpi_attribution.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "analysis/mpi_classes.hpp"
#include "analysis/seconds.hpp"

namespace parperf::analysis {
namespace {

std::uint64_t nanoseconds(double s) {
  const double ns = std::round(std::max(0.0, s) * 1e9);
  return ns >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(ns);
}

enum class Lifecycle { none, startup, shutdown };

Lifecycle lifecycle_of(const OperationIdentity& op) {
  if (is_startup_call(op.name)) return Lifecycle::startup;
  if (is_shutdown_call(op.name)) return Lifecycle::shutdown;
  return Lifecycle::none;
}

LocationStats* find_location(MergedInterval& interval, Location location) {
  auto it = std::lower_bound(interval.locations.begin(), interval.locations.end(), location,
                             [](const LocationStats& s, const Location& l) { return s.location < l; });
  return it != interval.locations.end() && it->location == location ? &*it : nullptr;
}

class Attribution {
 public:
  Attribution(IntervalTree& tree, const std::vector<format::Profile>& profiles, const SiteTable& sites,
              const ClockCorrection& clocks)
      : tree_(tree), sites_(sites), clocks_(clocks) {
    for (const format::Profile& p : profiles) profiles_.emplace(p.process.rank, &p);
  }

  void run(const CollectiveMatching& matching) {
    clear_collective_waits();
    for (const CollectiveCharge& charge : matching.charges) apply(charge);
    for (std::size_t i = 0; i < tree_.intervals.size(); ++i)
      for (LocationStats& stats : tree_.intervals[i].locations) charge_operations(i, stats);
  }

 private:
  // The runtime cannot know how long a collective waited for the others, in all or at most; the
  // matching tells.
  void clear_collective_waits() {
    for (MergedInterval& interval : tree_.intervals)
      for (LocationStats& stats : interval.locations)
        for (OperationFigures& op : stats.operations)
          if (format::is_mpi_collective_kind(op.identity.kind)) op.wait_ns = op.wait_max_ns = 0;
  }

  // The interval of node `node` of the location's thread; the program when it is not known.
  std::size_t interval_of(Location location, std::uint32_t node) const {
    auto it = tree_.node_intervals.find(location);
    if (it == tree_.node_intervals.end() || node >= it->second.size()) return 0;
    return it->second[node];
  }

  const OperationIdentity& identity(std::int64_t rank, std::uint32_t site) {
    auto [it, inserted] = identities_.try_emplace(std::pair(rank, site));
    if (inserted) {
      auto profile = profiles_.find(rank);
      if (profile != profiles_.end()) it->second = operation_identity(*profile->second, site, sites_);
    }
    return it->second;
  }

  void apply(const CollectiveCharge& charge) {
    LocationStats* stats =
        find_location(tree_.intervals[interval_of(charge.location, charge.node)], charge.location);
    if (!stats) stats = find_location(tree_.intervals[0], charge.location);
    if (!stats) return;  // a location the tree does not have: nothing to attribute to
    const OperationIdentity& id = identity(charge.location.rank, charge.site);
    auto op = std::find_if(stats->operations.begin(), stats->operations.end(),
                           [&](const OperationFigures& f) { return f.identity == id; });
    if (op == stats->operations.end()) {  // sampled but not in the statistics: keep the figures anyway
      op = stats->operations.insert(stats->operations.end(), OperationFigures{});
      op->identity = id;
    }
    op->synchronization += charge.synchronization;
    op->time_variation += charge.time_variation;
    op->arrival_spread = std::max(op->arrival_spread, charge.arrival_spread);
    op->matched_instances += charge.instances;
    op->last_arrivals += charge.last_arrivals;
    op->wait_ns += nanoseconds(charge.real_sync);
    op->wait_max_ns = std::max(op->wait_max_ns, nanoseconds(charge.real_sync_max));
  }

  // Takes `ns` out of the execution time of interval `i` and of every interval around it on
  // `location` (completed entries first, then an open one), as the time had never been spent there.
  void remove_from_execution(std::size_t i, Location location, std::uint64_t ns) {
    for (std::size_t j = i;; j = tree_.intervals[j].parent) {
      if (LocationStats* stats = find_location(tree_.intervals[j], location)) {
        const std::uint64_t from_sum = std::min(ns, stats->sum_ns);
        stats->sum_ns -= from_sum;
        stats->open_ns -= std::min(ns - from_sum, stats->open_ns);
      }
      if (j == 0) break;
    }
  }

  void charge_operations(std::size_t interval, LocationStats& stats) {
    for (OperationFigures& op : stats.operations) {
      const std::optional<MpiClass> cls = mpi_class(op.identity.kind);
      if (!cls) continue;
      if (op.last_end_ns != 0 || op.last_begin_ns != 0) {
        op.last_begin = clocks_.apply(stats.location.rank, static_cast<double>(op.last_begin_ns)) / 1e9;
        op.last_end = clocks_.apply(stats.location.rank, static_cast<double>(op.last_end_ns)) / 1e9;
      }
      TimeBreakdown& b = stats.breakdown;
      if (*cls == MpiClass::management) {
        const Lifecycle phase = lifecycle_of(op.identity);
        if (phase == Lifecycle::none) {
          b.productive_sys += seconds(op.sum_ns);
          continue;
        }
        (phase == Lifecycle::startup ? b.startup : b.shutdown) += seconds(op.sum_ns);
        remove_from_execution(interval, stats.location, op.sum_ns);
        continue;
      }
      const std::uint64_t real_sync = std::min(op.wait_ns, op.sum_ns);
      b.communication_real_sync += seconds(real_sync);
      b.communication_starts += seconds(op.sum_ns - real_sync);
      b.overlap += seconds(op.overlap_ns);
      // A barrier whose instances are not matched across processes (the one-sided models'): the
      // time a process waited in it is its share of the arrival spread, max_q arrive_q - arrive_p.
      if (*cls == MpiClass::barrier && !format::is_mpi_collective_kind(op.identity.kind))
        op.synchronization = seconds(real_sync);
      b.synchronization += op.synchronization;
      b.time_variation += op.time_variation;
    }
  }

  IntervalTree& tree_;
  const SiteTable& sites_;
  const ClockCorrection& clocks_;
  std::map<std::int64_t, const format::Profile*> profiles_;
  std::map<std::pair<std::int64_t, std::uint32_t>, OperationIdentity> identities_;
};

}  // namespace

void attribute_mpi(IntervalTree& tree, const std::vector<format::Profile>& profiles, const SiteTable& sites,
                   const ClockCorrection& clocks, const CollectiveMatching& matching) {
  Attribution(tree, profiles, sites, clocks).run(matching);
}

MpiAnalysis analyze_mpi(IntervalTree& tree, const std::vector<format::Profile>& profiles,
                        const SiteTable& sites) {
  MpiAnalysis mpi;
  mpi.clocks = correct_clocks(profiles);
  mpi.matching = match_collectives(profiles, mpi.clocks);
  attribute_mpi(tree, profiles, sites, mpi.clocks, mpi.matching);
  return mpi;
}

}  // namespace parperf::analysis
