/* Completes the interval "setup" (20 ms), then aborts 50 ms into the interval "doomed". */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "parperf/parperf.h"

static void burn_for_ms(int ms) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do clock_gettime(CLOCK_MONOTONIC, &now);
  while ((double)(now.tv_sec - start.tv_sec) * 1000.0 + (double)(now.tv_nsec - start.tv_nsec) / 1e6 < ms);
}

int main(void) {
  static parperf_site setup = PARPERF_SITE_INIT("setup", PARPERF_KIND_USER);
  static parperf_site doomed = PARPERF_SITE_INIT("doomed", PARPERF_KIND_USER);
  parperf_interval_begin(&setup, 0);
  burn_for_ms(20);
  parperf_interval_end(&setup);
  parperf_interval_begin(&doomed, 0);
  burn_for_ms(50);
  fflush(stdout);
  abort();
}
