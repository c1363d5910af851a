// The run's main findings that say processors wait for others, given what the samples say about
// the wait (sampled_cause.hpp): which processors are late and which wait, by each rule's own figures,
// and where to look in the samples.
//  - an OpenMP barrier (unbalanced_barrier, late_arrival_barrier, barrier_arrival): the threads that
//    waited least there are late (split at the midpoint of the waits), in the intervals of the
//    point's construct or region;
//  - an MPI collective's late rank (mpi_late_rank): that rank against the others at the call, in
//    the interval of the call (rank unit only: the samples are per rank then);
//  - a rank waiting for its partner (mpi_late_partner): its partners against it;
//  - an unbalanced loop: the processors with most time in the loop's iterations against the others;
//  - an interval's loss (interval_loss): the processors that lost least there against the others.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/findings.hpp"

namespace parperf::analysis {

// Sets Finding::sampled_cause, and the evidence it adds, on each finding above whose samples name a
// function; leaves the others as they are. `intervals` by tree index, as Analysis::intervals.
void add_sampled_causes(std::vector<Finding>& findings, const IntervalTree& tree,
                        const std::vector<IntervalAnalysis>& intervals, const SampleProfile& samples,
                        Unit unit);

}  // namespace parperf::analysis
