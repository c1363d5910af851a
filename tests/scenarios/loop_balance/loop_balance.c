/* Loop balance by construction (DESIGN.md section 9), annotated with the C API. The work is
 * sleeping (common/burn.h): each iteration lasts what it asks for plus its wake-up, even when other
 * processes take the cores.
 *
 * "growing" (a sequential loop of 20 iterations): iteration i sleeps (i + 1) ms, 210 ms in all.
 *   T_mean = 10.5 ms, min 1 ms, max 20 ms, so D = max(20 - 10.5, 10.5 - 1) = 9.5 ms = 0.90 of the
 *   mean: unbalanced for alpha = 0.1. Population standard deviation sqrt((20^2 - 1) / 12) = 5.77 ms.
 * "even" (a sequential loop of 12 iterations of 12 ms each, 144 ms in all): balanced, D = 0. Three
 *   iterations in four take the branch "cheap" (4 ms, then 8 ms of other work), the fourth the branch
 *   "dear" (12 ms): F = 9 and 3, T = 4 and 12 ms, so the frequency-weighted branch cost is
 *   (9 x 4 + 3 x 12) / 12 = 6 ms. */
#include "common/burn.h"
#include "parperf/parperf.h"

static parperf_site growing = PARPERF_SITE_INIT("growing", PARPERF_KIND_SEQUENTIAL_LOOP); /* SITE:growing */
static parperf_site even = PARPERF_SITE_INIT("even", PARPERF_KIND_SEQUENTIAL_LOOP);       /* SITE:even */
static parperf_site cheap = PARPERF_SITE_INIT("cheap", PARPERF_KIND_BRANCH);              /* SITE:cheap */
static parperf_site dear = PARPERF_SITE_INIT("dear", PARPERF_KIND_BRANCH);                /* SITE:dear */

int main(void) {
  parperf_interval_begin(&growing, 0);
  for (int i = 0; i < 20; ++i) {
    parperf_loop_iteration();
    sleep_for_ms(i + 1);
  }
  parperf_interval_end(&growing);

  parperf_interval_begin(&even, 0);
  for (int i = 0; i < 12; ++i) {
    parperf_loop_iteration();
    if (i % 4 == 3) {
      parperf_interval_begin(&dear, 0);
      sleep_for_ms(12);
      parperf_interval_end(&dear);
    } else {
      parperf_interval_begin(&cheap, 0);
      sleep_for_ms(4);
      parperf_interval_end(&cheap);
      sleep_for_ms(8);
    }
  }
  parperf_interval_end(&even);
  print_sleep_overshoot();
  return 0;
}
