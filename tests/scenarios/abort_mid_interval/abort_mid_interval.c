/* Completes the interval "setup" (20 ms), then aborts 50 ms into the interval "doomed". */
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"
#include "parperf/parperf.h"

int main(void) {
  static parperf_site setup = PARPERF_SITE_INIT("setup", PARPERF_KIND_USER);
  static parperf_site doomed = PARPERF_SITE_INIT("doomed", PARPERF_KIND_USER);
  parperf_interval_begin(&setup, 0);
  double work = burn_for_ms(20);
  parperf_interval_end(&setup);
  parperf_interval_begin(&doomed, 0);
  work += burn_for_ms(50);
  printf("%s\n", work > 0 ? "aborting" : "?");
  fflush(stdout);
  abort();
}
