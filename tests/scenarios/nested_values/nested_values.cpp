// Ground truth by construction: "solver" holds a sequential loop "sweep" of 6 steps; each step
// enters the interval "level" with the value step % 3 and works (value + 1) x 10 ms, sleeping
// (common/burn.h), so the lengths hold when other processes compete for the cores.
#include <cstdio>

#include "common/burn.h"
#include "parperf/parperf.hpp"

int main() {
  int checksum = 0;
  PARPERF_SCOPE("solver");
  PARPERF_SEQUENTIAL_LOOP("sweep");
  for (int step = 0; step < 6; ++step) {
    parperf::loop_iteration();
    const int value = step % 3;
    PARPERF_SCOPE_VALUE("level", value);
    sleep_for_ms(10 * (value + 1));
    checksum += value + 1;
  }
  std::printf("%s\n", checksum == 12 ? "solved" : "?");
  print_sleep_overshoot();
  return 0;
}
