// Ground truth by construction: thread A works for 60 ms, thread B for 180 ms, both inside the
// interval "work"; the main thread only starts and joins them (it never enters "work"). The work is
// sleeping (common/burn.h), so the lengths hold when other processes compete for the cores.
#include <cstdio>
#include <thread>

#include "common/burn.h"
#include "parperf/parperf.hpp"

namespace {

void worker(int ms) {
  PARPERF_SCOPE("work");
  sleep_for_ms(ms);
  std::printf("worker done\n");
}

}  // namespace

int main() {
  std::thread short_one(worker, 60);
  std::thread long_one(worker, 180);
  short_one.join();
  long_one.join();
  print_sleep_overshoot();
  return 0;
}
