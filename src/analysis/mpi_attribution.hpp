// Turns what the MPI collector measured into DESIGN.md's characteristics, per location and interval.
//
//  * Communication: the time in MPI calls of every class but management, lost. Its Real_sync part
//    is the time spent waiting for the partner: for point-to-point calls and completions the
//    runtime's estimate (`wait_ns`); for collectives what the matched instances show
//    (collective_matching.hpp), which replaces the runtime's 0. The rest of the call is Starts.
//  * MPI_Init, MPI_Finalize and the management of communicators, windows and files are productive
//    time in the parallel runtime (Sys), not communication: the program cannot do without them and
//    no partner is waited for.
//  * Synchronization and Time variation (potential losses) come from the matched collectives,
//    Overlap from the non-blocking calls' `overlap_ns`.
//  * Each MPI operation's last call is put on rank 0's clock (clock_correction.hpp).
// The figures go into each interval's own breakdown; attribute_openmp, which every analysis runs
// after this, makes breakdowns inclusive (an interval's losses include its subtree's), so the two
// must run in that order: analyze_mpi then attribute_openmp.
#pragma once

#include <vector>

#include "analysis/clock_correction.hpp"
#include "analysis/collective_matching.hpp"
#include "analysis/interval_tree.hpp"
#include "format/profile.hpp"

namespace parperf::analysis {

// `tree` built from `profiles`; `matching` from the same profiles and `clocks`.
void attribute_mpi(IntervalTree& tree, const std::vector<format::Profile>& profiles,
                   const ClockCorrection& clocks, const CollectiveMatching& matching);

// Everything MPI the report needs, computed once: the clocks, the matched collectives, and their
// attribution to `tree`. Runs with no MPI data leave the tree as it is.
struct MpiAnalysis {
  ClockCorrection clocks;
  CollectiveMatching matching;
};
MpiAnalysis analyze_mpi(IntervalTree& tree, const std::vector<format::Profile>& profiles);

}  // namespace parperf::analysis
