// Ground truth by construction: the main thread and one std::thread each enter "outer" once and,
// inside it, "inner" once per step, working 10 ms per step (sleeping, common/burn.h): 3 steps on
// the main thread, 2 on the worker. Only the main thread brackets each step with the user event "halo"
// ("exchange of step %d").
#include <cstdio>
#include <thread>

#include "common/burn.h"
#include "parperf/parperf.h"
#include "parperf/parperf.hpp"

namespace {

int work(int steps, unsigned halo) {
  int checksum = 0;
  PARPERF_SCOPE("outer");
  for (int step = 0; step < steps; ++step) {
    PARPERF_SCOPE("inner");
    if (halo) parperf_event_start(halo, step);
    sleep_for_ms(10);
    checksum += 1;
    if (halo) parperf_event_end(halo, step);
  }
  return checksum;
}

}  // namespace

int main() {
  const unsigned halo = parperf_event_create("halo", "exchange of step %d");
  int worker_checksum = 0;
  std::thread worker([&worker_checksum] { worker_checksum = work(2, 0); });
  const int checksum = work(3, halo);
  worker.join();
  std::printf("%s\n", checksum + worker_checksum == 5 ? "done" : "?");
  return 0;
}
