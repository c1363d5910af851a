/* The HTML report's size and speed bench (bench/html/page_speed.sh): a profile with 10 100 distinct
 * intervals on 64 processors. 64 threads each enter 100 "phase" intervals with 100 "step" intervals
 * in each, with a little work that differs by thread and step, so that every interval has
 * per-processor figures worth drawing. */
#include <parperf/parperf.h>
#include <pthread.h>
#include <stdio.h>

enum { kThreads = 64, kPhases = 100, kSteps = 100 };

static volatile double sink;

static void* worker(void* arg) {
  const long id = (long)arg;
  char phase[32], step[32];
  for (int p = 0; p < kPhases; ++p) {
    snprintf(phase, sizeof phase, "phase %d", p);
    parperf_interval_begin_named(phase, PARPERF_KIND_USER, "many_intervals.c", 20, 0);
    for (int s = 0; s < kSteps; ++s) {
      snprintf(step, sizeof step, "step %d.%d", p, s);
      parperf_interval_begin_named(step, PARPERF_KIND_SEQUENTIAL_LOOP, "many_intervals.c", 23, 0);
      double x = 0;
      for (long k = 0; k < 20 + (id * 7 + s) % 50; ++k) x += (double)k * 0.5;
      sink = x;
      parperf_interval_end_named(step);
    }
    parperf_interval_end_named(phase);
  }
  return 0;
}

int main(void) {
  pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; ++i) pthread_create(&threads[i], 0, worker, (void*)i);
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], 0);
  return 0;
}
