/* Completes the interval "setup" (20 ms), then aborts 50 ms into the interval "doomed". The work is
 * sleeping (common/burn.h), so the lengths hold on a busy machine; before aborting the program says
 * on stderr how late its sleeps ended ("sleep overshoot: S s"). */
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"
#include "parperf/parperf.h"

int main(void) {
  static parperf_site setup = PARPERF_SITE_INIT("setup", PARPERF_KIND_USER);
  static parperf_site doomed = PARPERF_SITE_INIT("doomed", PARPERF_KIND_USER);
  parperf_interval_begin(&setup, 0);
  sleep_for_ms(20);
  parperf_interval_end(&setup);
  parperf_interval_begin(&doomed, 0);
  sleep_for_ms(50);
  printf("aborting\n");
  fflush(stdout);
  print_sleep_overshoot();
  abort();
}
