/* The work of the C programs of this scenario (omp_spin.c, mpi_spin.c): heavy and light spin for a
 * given time of the calling thread's CPU time, so that their sampled shares hold however busy the
 * machine is, and they spend it mostly inside libm (cos, sin), so that the samples land in a library
 * built without frame pointers and must be unwound from there. Not static, and not identical: gcc
 * folds identical functions into one (-fipa-icf), and the samples could no longer tell them apart. */
#ifndef PARPERF_TEST_SPIN_WORK_H
#define PARPERF_TEST_SPIN_WORK_H

#include <math.h>

#include "../common/burn.h"

static double cpu_seconds(void) { return scenario_seconds(CLOCK_THREAD_CPUTIME_ID); }

__attribute__((noinline)) double heavy(double seconds) {
  volatile double sum = 0;
  const double end = cpu_seconds() + seconds;
  while (cpu_seconds() < end)
    for (int i = 0; i < 20000; ++i) sum = sum + cos((double)i * 1e-4);
  return sum;
}

__attribute__((noinline)) double light(double seconds) {
  volatile double sum = 0;
  const double end = cpu_seconds() + seconds;
  while (cpu_seconds() < end)
    for (int i = 0; i < 20000; ++i) sum = sum + sin((double)i * 1e-4);
  return sum;
}

/* light is reached through a caller of its own, which the walk must find above it. The addition after
 * the call keeps it a call, not a jump. */
static volatile double through_sink;
__attribute__((noinline)) void through(double seconds) {
  through_sink = light(seconds);
  through_sink = through_sink + 1;
}

#endif
