// Waiting for an MPI request without taking a core from the process that works. Open MPI's own
// waits poll (and, oversubscribed, call sched_yield between polls): a process of a parallel analysis
// that waits while the first analyses the run would keep a core busy the analysis needs. Waiting
// here tests the request and sleeps between tests, longer as the wait goes on, up to 2 ms: a wait
// ends at most that late, and the waiting process takes next to no processor time.
#pragma once

#include <mpi.h>

namespace parperf::cli {

// MPI_Wait(&request, MPI_STATUS_IGNORE), sleeping between tests.
void wait_sleeping(MPI_Request& request);

// MPI_Barrier(communicator), waited for with wait_sleeping.
void barrier_sleeping(MPI_Comm communicator);

}  // namespace parperf::cli
