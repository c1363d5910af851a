// Reading one rank's trace for the activity graph: each of its threads' events into points and
// operations (graph_points.hpp), cut to the rank's window (from the end of its MPI_Init or shmem_init
// to the start of its finalize), on whichever thread reads it. What the rank meets first is numbered
// first among its own intervals and operation names; the graph's builder gives them the run's numbers
// when it makes the rank's nodes, in rank order.
#pragma once

#include <span>

#include "analysis/clock_correction.hpp"
#include "analysis/trace/graph_points.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis::graph_points {

// Reads `rank` (its clock correction `clock`) into `out`, empty before. `counted`: its locations'
// sizes as counted before (node_counting.hpp), in its threads' order, which the reading reserves.
// Throws a FormatError for a damaged trace and a length_error for a thread of more events than the
// graph can number.
void read_rank(const RankTrace& rank, const RankClock& clock, std::span<const LocationSize> counted,
               RankRead& out);

}  // namespace parperf::analysis::graph_points
