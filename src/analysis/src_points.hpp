// SRC points (DESIGN.md section 2): every synchronization and communication site, with what it cost
// over the run, ranked by the time lost there.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

// What one rank spent at an MPI call site: the report names the rank that waits most, and for whom.
struct RankAtSite {
  std::int64_t rank = 0;
  double time = 0;
  double real_sync = 0;
  double synchronization = 0;
  std::int64_t partner_min = format::kNoPartner;
  std::int64_t partner_max = format::kNoPartner;
  // Collectives: the matched instances of the rank at this site, and in how many of them it was the
  // last to arrive (collective_matching.hpp; counted on the sampled instances, not scaled).
  std::uint64_t matched_instances = 0;
  std::uint64_t last_arrivals = 0;
};

struct SrcPoint {
  OperationIdentity identity;
  IntervalIdentity interval;  // the interval it occurred in (first met); a construct for its barriers
  std::uint64_t count = 0;
  double total = 0;  // seconds, over all locations
  double wait = 0;   // waiting before the operation proper (locks, critical, ordered, barriers)
  double wait_max = 0;
  double sync = 0;  // waiting at the end of a work-sharing construct or parallel region
  double sync_max = 0;
  // MPI calls: `wait` is the Real_sync part of the communication (waiting for the partner), `starts`
  // the rest of the call; management calls (Init, Finalize, ...) lose nothing. The potential losses
  // and the arrival spread come from the matched collectives.
  double starts = 0;
  double synchronization = 0;
  double time_variation = 0;
  double overlap = 0;
  double arrival_spread = 0;  // the widest gap between the first and the last rank to arrive
  std::uint64_t bytes = 0;
  std::vector<RankAtSite> ranks;    // MPI calls only, by rank
  std::vector<Location> locations;  // where it occurred, sorted
  // For the implicit barrier of a construct: the construct's per-location work (its time less the
  // time waited at this barrier), max over mean; 1 when balanced, 0 when not applicable.
  double imbalance = 0;
  // For the join barrier of a region that holds a single work-sharing construct (a combined
  // `parallel for`): that construct, whose implicit barrier the join barrier is.
  std::optional<IntervalIdentity> combined_construct;
  // For the barrier of a construct: whether its threads ran while others waited there. The OS CPU
  // time and the wall-clock time, summed over the threads the point occurred on, of the nearest
  // interval around it with CPU time reads (its parallel region or a user interval: the runtime
  // reads CPU time only at their boundaries), and that interval's entries on those threads.
  double enclosing_cpu = 0;
  double enclosing_wall = 0;
  std::uint64_t enclosing_entries = 0;

  double lost() const { return wait + sync + starts; }
};

// All operation sites of the tree, merged by identity, most lost time first (ties: most time).
std::vector<SrcPoint> src_points(const IntervalTree& tree);

}  // namespace parperf::analysis
