// SRC points (DESIGN.md section 2): every synchronization site, with what it cost over the run,
// ranked by the time lost there.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

struct SrcPoint {
  OperationIdentity identity;
  IntervalIdentity interval;  // the interval it occurred in (first met); a construct for its barriers
  std::uint64_t count = 0;
  double total = 0;  // seconds, over all locations
  double wait = 0;   // waiting before the operation proper (locks, critical, ordered, barriers)
  double wait_max = 0;
  double sync = 0;  // waiting at the end of a work-sharing construct or parallel region
  double sync_max = 0;
  std::vector<Location> locations;  // where it occurred, sorted
  // For the implicit barrier of a construct: the construct's per-location work (its time less the
  // time waited at this barrier), max over mean; 1 when balanced, 0 when not applicable.
  double imbalance = 0;
  // For the join barrier of a region that holds a single work-sharing construct (a combined
  // `parallel for`): that construct, whose implicit barrier the join barrier is.
  std::optional<IntervalIdentity> combined_construct;

  double lost() const { return wait + sync; }
};

// All operation sites of the tree, merged by identity, most lost time first (ties: most time).
std::vector<SrcPoint> src_points(const IntervalTree& tree);

}  // namespace parperf::analysis
