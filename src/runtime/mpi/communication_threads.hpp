// The threads an MPI library starts for itself (Open MPI's progress and PMIx threads, UCX's,
// libfabric's) are not the program's: named to the core (parperf_collector_foreign_threads), they
// are never registered, so they never show up as processors that idle through the whole run.
#pragma once

namespace parperf::mpi {

// Names the MPI stack's libraries to the core, once; before PMPI_Init, which starts the threads.
void name_communication_threads() noexcept;

}  // namespace parperf::mpi
