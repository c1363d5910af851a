// Turns what the GASP tool measured (the UPC site kinds, format/site_kinds.hpp) into DESIGN.md's
// characteristics, per location and interval:
//  * shared accesses (puts, gets, copies), their completions, fences, barriers, locks and
//    collectives are Communication: the part the tool saw waiting for other threads (a barrier
//    wait, a lock acquisition) is its Real_sync, the rest its Starts;
//  * the management of the shared heap and of locks, and the exits, are productive time in the
//    parallel runtime (Sys), not communication.
// Like attribute_mpi it fills each interval's own figures; attribute_openmp, which runs after it,
// makes them inclusive.
#pragma once

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

void attribute_upc(IntervalTree& tree);

}  // namespace parperf::analysis
