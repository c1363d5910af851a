#include "cli/mpi_sleeping_wait.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace parperf::cli {

void wait_sleeping(MPI_Request& request) {
  // From 50 us, doubling: a short wait costs little latency, a long one (the whole analysis) a test
  // every 2 ms.
  std::chrono::microseconds pause{50};
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds{2000});
  }
}

void barrier_sleeping(MPI_Comm communicator) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(communicator, &request);
  wait_sleeping(request);
}

}  // namespace parperf::cli
