// Ground truth by construction: thread A computes for 60 ms, thread B for 180 ms, both inside the
// interval "work"; the main thread only starts and joins them (it never enters "work").
#include <cstdio>
#include <thread>

#include "common/burn.h"
#include "parperf/parperf.hpp"

namespace {

void worker(int ms) {
  PARPERF_SCOPE("work");
  std::printf("%s\n", burn_for_ms(ms) > 0 ? "worker done" : "?");
}

}  // namespace

int main() {
  std::thread short_one(worker, 60);
  std::thread long_one(worker, 180);
  short_one.join();
  long_one.join();
  return 0;
}
