// The C++ API: RAII scopes, values, loop kinds and iteration marks.
#include <cstdio>

#include "parperf/parperf.hpp"

namespace {

double rows(int count) {
  PARPERF_PARALLEL_LOOP("rows");
  double sum = 0;
  for (int row = 0; row < count; ++row) {
    parperf::loop_iteration();
    for (int i = 0; i < 100000; ++i) sum += i * 0.5;
  }
  return sum;
}

}  // namespace

int main() {
  double sum = 0;
  PARPERF_SCOPE_VALUE("compute", 1);
  {
    PARPERF_SEQUENTIAL_LOOP("steps");
    for (int step = 0; step < 3; ++step) {
      parperf::loop_iteration();
      sum += rows(4);
    }
  }
  const unsigned send = parperf_event_create("send", "%d bytes");
  parperf_event_atomic(send, 64);
  std::printf("%.1f\n", sum);
  return 0;
}
