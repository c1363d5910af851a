// Ground truth by construction: thread A computes for 60 ms, thread B for 180 ms, both inside the
// interval "work"; the main thread only starts and joins them (it never enters "work").
#include <chrono>
#include <cstdio>
#include <thread>

#include "parperf/parperf.hpp"

namespace {

double burn_for(std::chrono::milliseconds duration) {
  const auto end = std::chrono::steady_clock::now() + duration;
  double x = 1.0;
  while (std::chrono::steady_clock::now() < end) x = x * 1.0000001 + 1e-9;
  return x;
}

void worker(int ms) {
  PARPERF_SCOPE("work");
  std::printf("%s\n", burn_for(std::chrono::milliseconds(ms)) > 0 ? "worker done" : "?");
}

}  // namespace

int main() {
  std::thread short_one(worker, 60);
  std::thread long_one(worker, 180);
  short_one.join();
  long_one.join();
  return 0;
}
