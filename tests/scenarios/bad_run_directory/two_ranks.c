/* One rank of a pretend two-process run (the test sets PARPERF_RANK and PARPERF_WORLD_SIZE):
 * rank r works (r + 1) x 20 ms in the interval "work", sleeping (common/burn.h). */
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"
#include "parperf/parperf.h"

int main(void) {
  static parperf_site work = PARPERF_SITE_INIT("work", PARPERF_KIND_USER);
  const char* rank_text = getenv("PARPERF_RANK");
  const int rank = rank_text ? atoi(rank_text) : 0;
  parperf_interval_begin(&work, 0);
  sleep_for_ms(20 * (rank + 1));
  parperf_interval_end(&work);
  printf("rank %d: done\n", rank);
  print_sleep_overshoot();
  return 0;
}
