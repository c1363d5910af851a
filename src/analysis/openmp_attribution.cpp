#include "analysis/openmp_attribution.hpp"
#include "analysis/seconds.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "format/records.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

std::uint64_t nanoseconds(double s) { return static_cast<std::uint64_t>(std::max(0.0, s) * 1e9 + 0.5); }

// OpenMP's own operations; the MPI collector's (64 and above) are attribute_mpi's business, and their
// wait is waiting for a partner, not for the team.
bool is_openmp_operation(const OperationFigures& op) {
  return op.identity.kind >= format::kFirstOperationKind && op.identity.kind < format::kFirstMpiKind;
}

bool is_parallel(const MergedInterval& interval) {
  return interval.identity.kind == static_cast<std::uint32_t>(SiteKind::omp_parallel);
}

const LocationStats* find_location(const MergedInterval& interval, Location location) {
  auto it = std::lower_bound(interval.locations.begin(), interval.locations.end(), location,
                             [](const LocationStats& s, const Location& l) { return s.location < l; });
  return it != interval.locations.end() && it->location == location ? &*it : nullptr;
}

class Attribution {
 public:
  explicit Attribution(IntervalTree& tree) : tree_(tree), sequential_given_(tree.intervals.size()) {}

  void run() {
    mark_structure();
    remove_parked_time();
    // Parents precede children in the vector, so a backward walk sees every child first.
    for (std::size_t i = tree_.intervals.size(); i-- > 0;) {
      MergedInterval& interval = tree_.intervals[i];
      for (LocationStats& stats : interval.locations) gather_children(interval, stats);
      if (is_parallel(interval)) {
        charge_replicated_code(interval);
        charge_join_waits(interval);
      }
      if (contains_parallel_[i] && !inside_parallel_[i] && !is_parallel(interval)) charge_sequential_code(i);
    }
  }

 private:
  void mark_structure() {
    const std::size_t n = tree_.intervals.size();
    inside_parallel_.assign(n, false);
    contains_parallel_.assign(n, false);
    for (std::size_t i = 1; i < n; ++i) {
      const std::size_t parent = tree_.intervals[i].parent;
      inside_parallel_[i] = inside_parallel_[parent] || is_parallel(tree_.intervals[parent]);
    }
    for (std::size_t i = n; i-- > 1;) {
      if (is_parallel(tree_.intervals[i]) || contains_parallel_[i])
        contains_parallel_[tree_.intervals[i].parent] = true;
    }
  }

  // A pool thread exists for the whole run but executes only while in a team.
  void remove_parked_time() {
    for (LocationStats& stats : tree_.intervals[0].locations) {
      auto facts = tree_.thread_facts.find(stats.location);
      if (facts == tree_.thread_facts.end()) continue;
      const std::uint64_t parked = std::min(facts->second.parked_ns, stats.sum_ns + stats.open_ns);
      const std::uint64_t from_sum = std::min(parked, stats.sum_ns);
      stats.sum_ns -= from_sum;
      stats.open_ns -= parked - from_sum;
    }
  }

  // Sums the children's attributed time, losses and sequential shares into `stats`, and charges the
  // interval's own operations.
  void gather_children(const MergedInterval& interval, LocationStats& stats) {
    std::uint64_t children_exec = 0, children_attributed = 0;
    double given = 0;
    TimeBreakdown breakdown;
    for (std::size_t c : interval.children) {
      const LocationStats* child = find_location(tree_.intervals[c], stats.location);
      if (!child) continue;
      children_exec += child->exec_ns();
      children_attributed += child->attributed_ns;
      breakdown += child->breakdown;
      given += sequential_given_[c][stats.location];
    }
    for (const OperationFigures& op : stats.operations) {
      if (!is_openmp_operation(op)) continue;
      breakdown.desync += seconds(op.sync_ns);
      breakdown.waiting += seconds(op.wait_ns);
    }
    stats.breakdown += breakdown;
    stats.attributed_ns = stats.context ? children_exec : stats.attributed_ns + children_attributed;
    const std::size_t index = static_cast<std::size_t>(&interval - tree_.intervals.data());
    sequential_given_[index][stats.location] = given;
  }

  std::size_t threads_of_rank(const MergedInterval& interval, std::int64_t rank) const {
    return static_cast<std::size_t>(
        std::count_if(interval.locations.begin(), interval.locations.end(),
                      [&](const LocationStats& s) { return s.location.rank == rank; }));
  }

  // Only where the region shares work through constructs the collector saw: gcc inlines static loops
  // (no OMPT event), and a region that divides its work by thread number looks alike; calling all of
  // that replication would blame the most common parallel loop for a loss it does not have.
  bool shares_work(const MergedInterval& region) const {
    for (std::size_t c : region.children) {
      const std::uint32_t kind = tree_.intervals[c].identity.kind;
      if (kind >= static_cast<std::uint32_t>(SiteKind::omp_loop) &&
          kind <= static_cast<std::uint32_t>(SiteKind::omp_scope) &&
          kind != static_cast<std::uint32_t>(SiteKind::omp_task))
        return true;
    }
    return false;
  }

  void charge_replicated_code(MergedInterval& interval) {
    if (!shares_work(interval)) return;
    for (LocationStats& stats : interval.locations) {
      const std::size_t k = threads_of_rank(interval, stats.location.rank);
      if (k < 2 || stats.context) continue;
      std::uint64_t accounted = 0;
      for (std::size_t c : interval.children) {
        if (const LocationStats* child = find_location(tree_.intervals[c], stats.location))
          accounted += child->exec_ns() - child->attributed_ns;
      }
      for (const OperationFigures& op : stats.operations) accounted += op.sum_ns;
      const std::uint64_t measured = stats.sum_ns + stats.open_ns;
      if (measured <= accounted) continue;
      const double replicated = seconds(measured - accounted);
      stats.breakdown.insufficient_parallelism_user +=
          replicated * static_cast<double>(k - 1) / static_cast<double>(k);
    }
  }

  // Members wait at the join barrier from their arrival to the end of the region on its master.
  void charge_join_waits(MergedInterval& interval) {
    std::map<std::int64_t, std::pair<std::uint64_t, std::uint64_t>> longest;  // rank -> (exec, entries)
    for (const LocationStats& s : interval.locations) {
      auto& [exec, entries] = longest[s.location.rank];
      exec = std::max(exec, s.exec_ns());
      entries = std::max(entries, s.entries());
    }
    for (LocationStats& stats : interval.locations) {
      const auto [exec, entries] = longest[stats.location.rank];
      if (entries == 0 || stats.entries() == 0) continue;
      const double share =
          static_cast<double>(exec) * static_cast<double>(stats.entries()) / static_cast<double>(entries);
      // At most `exec` (entries is the largest count), but rounded it may reach 2^64 itself.
      const auto expected = share >= 1.8e19 ? exec : static_cast<std::uint64_t>(share);
      if (expected <= stats.exec_ns()) continue;
      const std::uint64_t join = expected - stats.exec_ns();
      stats.attributed_ns += join;
      stats.breakdown.desync += seconds(join);
      for (OperationFigures& op : stats.operations) {
        if (op.identity.kind != static_cast<std::uint32_t>(SiteKind::omp_join_barrier)) continue;
        op.sync_ns += join;
        op.sum_ns += join;
        break;
      }
    }
  }

  // Time the location spent in the top-level parallel regions of interval `i`'s subtree.
  std::uint64_t parallel_time(std::size_t i, Location location) const {
    std::uint64_t total = 0;
    for (std::size_t c : tree_.intervals[i].children) {
      const LocationStats* child = find_location(tree_.intervals[c], location);
      if (!child) continue;
      total += is_parallel(tree_.intervals[c]) ? child->exec_ns() : parallel_time(c, location);
    }
    return total;
  }

  // Communication (seconds: real sync, starts) of the location in interval `i`'s subtree outside its
  // top-level parallel regions: the part of its sequential code spent in message passing.
  std::pair<double, double> sequential_communication(std::size_t i, const LocationStats& stats) const {
    double real_sync = stats.breakdown.communication_real_sync, starts = stats.breakdown.communication_starts;
    subtract_parallel_communication(i, stats.location, real_sync, starts);
    return {std::max(0.0, real_sync), std::max(0.0, starts)};
  }
  void subtract_parallel_communication(std::size_t i, Location location, double& real_sync,
                                       double& starts) const {
    for (std::size_t c : tree_.intervals[i].children) {
      const LocationStats* child = find_location(tree_.intervals[c], location);
      if (!child) continue;
      if (is_parallel(tree_.intervals[c])) {
        real_sync -= child->breakdown.communication_real_sync;
        starts -= child->breakdown.communication_starts;
      } else {
        subtract_parallel_communication(c, location, real_sync, starts);
      }
    }
  }

  bool owns(const LocationStats& stats, std::size_t i) const {
    if (stats.context || stats.entries() == 0) return false;
    if (i != 0) return true;
    auto facts = tree_.thread_facts.find(stats.location);
    return facts == tree_.thread_facts.end() || facts->second.kind != format::ThreadKind::openmp_worker;
  }

  // The master's sequential time, and the part of it it spent communicating (MPI outside parallel
  // regions), per rank.
  struct Sequential {
    std::uint64_t time_ns = 0;
    double real_sync = 0, starts = 0;
  };

  // The team's other threads are absent while the master runs sequential code. In a hybrid program
  // part of that code is message passing: that share of their absence is lost to communication
  // rather than to insufficient parallelism, so that a rank's Communication is its master's, whatever
  // the processor unit.
  void charge_sequential_code(std::size_t i) {
    MergedInterval& interval = tree_.intervals[i];
    std::map<std::int64_t, Sequential> sequential;
    std::map<std::int64_t, std::uint64_t> execution;  // per rank
    for (const LocationStats& s : interval.locations) {
      execution[s.location.rank] = std::max(execution[s.location.rank], s.exec_ns());
      if (!owns(s, i)) continue;
      const std::uint64_t in_parallel = parallel_time(i, s.location);
      const std::uint64_t seq = s.exec_ns() > in_parallel ? s.exec_ns() - in_parallel : 0;
      Sequential& master = sequential[s.location.rank];
      if (seq < master.time_ns) continue;
      master.time_ns = seq;
      std::tie(master.real_sync, master.starts) = sequential_communication(i, s);
    }
    for (LocationStats& stats : interval.locations) {
      if (owns(stats, i)) continue;
      const std::uint64_t exec = execution[stats.location.rank];
      if (exec <= stats.exec_ns()) continue;
      const Sequential& master = sequential[stats.location.rank];
      double& given = sequential_given_[i][stats.location];
      const double remaining = std::max(0.0, seconds(master.time_ns) - given);
      const double charge = std::min(remaining, seconds(exec - stats.exec_ns()));
      if (charge <= 0) continue;
      stats.attributed_ns += nanoseconds(charge);
      given += charge;
      const double master_seq = seconds(master.time_ns);
      const double communicating =
          master_seq > 0 ? std::min(1.0, (master.real_sync + master.starts) / master_seq) : 0.0;
      const double communication = charge * communicating;
      const double real_sync_share =
          master.real_sync + master.starts > 0 ? master.real_sync / (master.real_sync + master.starts) : 0.0;
      stats.breakdown.communication_real_sync += communication * real_sync_share;
      stats.breakdown.communication_starts += communication * (1 - real_sync_share);
      stats.breakdown.insufficient_parallelism_user += charge - communication;
    }
  }

  IntervalTree& tree_;
  std::vector<bool> inside_parallel_, contains_parallel_;
  std::vector<std::map<Location, double>> sequential_given_;
};

}  // namespace

void attribute_openmp(IntervalTree& tree) { Attribution(tree).run(); }

}  // namespace parperf::analysis
