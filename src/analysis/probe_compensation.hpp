// Compensation of parperf's own probes in the interval times (as TAU's overhead compensation and
// the loop-timing methods we follow do): a fine-grained loop must not be reported slower than it
// runs because every iteration carries a mark and an interval entry of ours.
//
// The runtime measures on each thread, when the thread starts, what its probes cost (ProbeCosts,
// in the thread's record of the profile): an interval entry (its begin and its end) adds
// `entry_ns` to every interval that encloses it, `inside_ns` of which lie between its own time
// stamps and so inside its own time; an iteration mark adds `mark_ns` to its loop, and to the
// iteration it closes. Subtracting them, location by location:
//
//   time(interval)      −= entries·inside_ns + (entries of every interval nested inside)·entry_ns
//                          + (iteration marks inside, its own included)·mark_ns
//   iterations(loop)    −= marks·mark_ns + (entries nested inside)·entry_ns;  min and max −= mark_ns
//
// Times never go below zero, and an interval loses at least as much as any interval inside it,
// so parts stay within their wholes. Operations timed by the collectors (MPI calls, OpenMP
// waits) are left as measured: their own cost is not part of these probes.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

struct ProbeCosts {
  std::uint64_t entry_ns = 0;   // one interval entry, as the intervals around it see it
  std::uint64_t inside_ns = 0;  // the part of it inside the entry's own time
  std::uint64_t mark_ns = 0;    // one iteration mark
};

struct ProbeCompensation {
  bool applied = false;
  std::uint64_t locations = 0;  // locations with calibrated costs
  // Means over those locations, ns.
  double entry_ns = 0;
  double inside_ns = 0;
  double mark_ns = 0;
  // Taken out of the program interval's time, summed over its locations (seconds), and the share
  // of its measured time that is.
  double removed_seconds = 0;
  double removed_share = 0;
};

// The costs each profile's probe_costs section gives, by location (thread index in its process).
std::map<Location, ProbeCosts> probe_costs_of(const std::vector<format::Profile>& profiles);

// Subtracts the probes' costs from the interval and iteration times of `tree`; locations without
// calibrated costs (older profiles, a thread that started while recording was off) stay as they are.
ProbeCompensation compensate_probe_costs(IntervalTree& tree, const std::map<Location, ProbeCosts>& costs);

}  // namespace parperf::analysis
