// Turns what the MPI collector measured into DESIGN.md's characteristics, per location and interval.
//
//  * Communication: the time in MPI calls of every class but management, lost. Its Real_sync part
//    is the time spent waiting for the partner: for point-to-point calls and completions the
//    runtime's estimate (`wait_ns`); for collectives what the matched instances show
//    (collective_matching.hpp), which replaces the runtime's 0, and so does the longest wait of
//    one matched instance (`wait_max_ns`). The rest of the call is Starts.
//  * MPI_Init (and MPI_Init_thread) and MPI_Finalize are start-up and shut-down, never useful work:
//    their time, with the ranks' waiting for one another inside them and the collector's clock
//    exchanges there, is taken out of the execution time of the interval that holds the call and
//    of every interval around it (the `program` interval above all), and shown apart
//    (TimeBreakdown::startup, shutdown). So an interval's efficiency, the `program` interval's
//    included, is that of the program's own work; code before MPI_Init and after MPI_Finalize
//    stays in the `program` interval like any code every rank runs.
//  * The management of communicators, windows and files is productive time in the parallel
//    runtime (Sys), not communication: the program cannot do without it and no partner is waited
//    for.
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

// `tree` built from `profiles` and `sites`; `matching` from the same profiles and `clocks`.
void attribute_mpi(IntervalTree& tree, const std::vector<format::Profile>& profiles, const SiteTable& sites,
                   const ClockCorrection& clocks, const CollectiveMatching& matching);

// Everything MPI the report needs, computed once: the clocks, the matched collectives, and their
// attribution to `tree`. Runs with no MPI data leave the tree as it is.
struct MpiAnalysis {
  ClockCorrection clocks;
  CollectiveMatching matching;
};
MpiAnalysis analyze_mpi(IntervalTree& tree, const std::vector<format::Profile>& profiles,
                        const SiteTable& sites = {});

}  // namespace parperf::analysis
