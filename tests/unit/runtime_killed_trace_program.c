/* A busy traced program for runtime_killed_trace_test: two threads enter and leave intervals with
 * pseudo-random values (events that compress poorly, so that blocks stay larger than the trace
 * writer's buffer) for at most 2 million intervals each; the test's shim kills it long before. The
 * main thread writes the profile so far early on (parperf_flush), so that the run can be reported. */
#include <parperf/parperf.h>
#include <pthread.h>
#include <stdint.h>

static parperf_site outer = PARPERF_SITE_INIT("killed_outer", PARPERF_KIND_USER);
static parperf_site inner = PARPERF_SITE_INIT("killed_inner", PARPERF_KIND_USER);

static void* busy(void* arg) {
  uint64_t state = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1;
  for (long i = 0; i < 2000000; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    parperf_interval_begin(&outer, (int64_t)(state & 0xff));
    parperf_interval_begin(&inner, (int64_t)((state >> 12) & 0x7));
    parperf_interval_end(&inner);
    parperf_interval_end(&outer);
    if (i == 1000 && arg == (void*)2) parperf_flush(); /* a profile for `parperf report` to read */
  }
  return 0;
}

int main(void) {
  pthread_t worker;
  pthread_create(&worker, 0, busy, (void*)1);
  busy((void*)2);
  pthread_join(worker, 0);
  return 0;
}
