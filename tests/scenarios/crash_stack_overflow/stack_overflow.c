/* Completes the interval "before", then recurses without end inside the interval "recursion"
 * until the stack overflows (SIGSEGV with no stack left for an ordinary signal handler). */
#include <stdio.h>

#include "parperf/parperf.h"

static int descend(int depth) {
  volatile char frame[512];
  frame[0] = (char)depth;
  return descend(depth + 1) + frame[0];
}

int main(void) {
  static parperf_site before = PARPERF_SITE_INIT("before", PARPERF_KIND_USER);
  static parperf_site recursion = PARPERF_SITE_INIT("recursion", PARPERF_KIND_USER);
  parperf_interval_begin(&before, 0);
  parperf_interval_end(&before);
  parperf_interval_begin(&recursion, 0);
  puts("descending");
  fflush(stdout);
  return descend(0);
}
