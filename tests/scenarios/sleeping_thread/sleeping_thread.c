/* Ground truth by construction (POSIX threads, C): inside the interval "phase", thread 1 sleeps
 * 200 ms and thread 2 computes for 100 ms. */
#include <pthread.h>
#include <stdio.h>

#include "common/burn.h"
#include "parperf/parperf.h"

static parperf_site phase = PARPERF_SITE_INIT("phase", PARPERF_KIND_USER);

static void* sleeper(void* arg) {
  (void)arg;
  parperf_interval_begin(&phase, 0);
  sleep_for_ms(200);
  parperf_interval_end(&phase);
  return NULL;
}

/* Prints the CPU time it really got: on a loaded machine 100 ms of wall clock may buy less. */
static void* computer(void* arg) {
  volatile double* x = arg;
  const double cpu_start = scenario_seconds(CLOCK_THREAD_CPUTIME_ID);
  parperf_interval_begin(&phase, 0);
  *x = burn_for_ms(100);
  parperf_interval_end(&phase);
  printf("computing thread cpu %.6f s\n", scenario_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start);
  return NULL;
}

int main(void) {
  double x = 1.0;
  pthread_t a, b;
  pthread_create(&a, NULL, sleeper, NULL);
  pthread_create(&b, NULL, computer, &x);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%s\n", x > 0 ? "done" : "?");
  print_sleep_overshoot();
  return 0;
}
