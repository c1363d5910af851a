// Eight threads that each compute for 200 ms of wall-clock time inside the interval "spin", all at
// once; the test runs the program on one core (taskset), so at most one of them is on the CPU at a
// time: their CPU time in all is at most the ~200 ms they overlap, against 8 x 200 ms inside.
#include <pthread.h>
#include <stdio.h>

#include "common/burn.h"
#include "parperf/parperf.h"

enum { kThreads = 8, kSpinMs = 200 };

static void* spin(void* result) {
  parperf_interval_begin_named("spin", PARPERF_KIND_USER, __FILE__, __LINE__, 0);
  *(double*)result = burn_for_ms(kSpinMs);
  parperf_interval_end_named("spin");
  return NULL;
}

int main(void) {
  pthread_t threads[kThreads];
  double results[kThreads];
  for (int i = 0; i < kThreads; ++i) pthread_create(&threads[i], NULL, spin, &results[i]);
  double sum = 0;
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(threads[i], NULL);
    sum += results[i];
  }
  printf("%d\n", sum > 0);
  return 0;
}
