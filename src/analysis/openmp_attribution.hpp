// Turns what the OpenMP collector measured into DESIGN.md's losses, per location and interval.
//
// The collector records time where a thread spends it; some losses are visible only across the
// threads of a team, so this pass (a pure function of the merged tree) works them out:
//  * A team member's time in a parallel region ends when it reaches the region's join barrier
//    (the runtime parks it there); until the region ends on its master it waits at that barrier.
//    That wait is attributed to the member as desynchronization at the region's join barrier.
//  * Outside parallel regions only the thread that forked the teams runs: for an interval that
//    contains parallel regions, each other thread of the teams is absent while the master runs
//    sequential code. That absence is insufficient parallelism (DESIGN.md: "sequential code
//    outside parallel regions, the other n-1 threads idle"), up to the master's sequential time;
//    anything beyond it stays idle time. The share of the master's sequential time spent in MPI calls
//    (a hybrid program communicating outside parallel regions) is charged as communication instead.
//  * Inside a parallel region, time outside work-sharing constructs, tasks, nested intervals and
//    synchronizations is code every thread of the team replicates: (k-1)/k of it is insufficient
//    parallelism for a team of k threads.
//  * Waiting recorded at OpenMP operations (kinds 32-63) becomes desync (implicit barriers, barriers
//    closing nowait chains, runtime barriers) or waiting (explicit barriers, locks, critical,
//    ordered, taskwait). MPI operations are attribute_mpi's (mpi_attribution.hpp), which runs first.
// Intervals that a location only carries as the path to a joined team (context) take their time
// from their children. Breakdowns are inclusive: an interval's losses include its subtree's (this pass
// adds each child's breakdown to its parent's, the MPI figures attribute_mpi put there included).
#pragma once

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

void attribute_openmp(IntervalTree& tree);

}  // namespace parperf::analysis
