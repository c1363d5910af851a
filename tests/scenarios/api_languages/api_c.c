/* The C API: static sites, values, a parallel-loop interval with iteration marks, a run-time
 * name, user events, recording control and an explicit flush. */
#include <stdio.h>

#include "parperf/parperf.h"

static parperf_site compute = PARPERF_SITE_INIT("compute", PARPERF_KIND_USER);
static parperf_site loop = PARPERF_SITE_INIT("rows", PARPERF_KIND_PARALLEL_LOOP);
static parperf_site skipped = PARPERF_SITE_INIT("skipped", PARPERF_KIND_USER);

int main(void) {
  const unsigned send = parperf_event_create("send", "%d bytes");
  double sum = 0;
  parperf_interval_begin(&compute, 1);
  parperf_interval_begin(&loop, 0);
  for (int row = 0; row < 4; ++row) {
    parperf_loop_iteration();
    for (int i = 0; i < 100000; ++i) sum += i * 0.5;
  }
  parperf_interval_end(&loop);
  parperf_event_start(send, 128);
  parperf_event_end(send);
  parperf_interval_end(&compute);

  parperf_interval_begin_named("named_phase", PARPERF_KIND_USER, __FILE__, __LINE__, 0);
  parperf_interval_end_named("named_phase");

  parperf_control(0);
  parperf_interval_begin(&skipped, 0);
  parperf_interval_end(&skipped);
  parperf_control(1);
  parperf_flush();
  printf("%.1f\n", sum);
  return 0;
}
