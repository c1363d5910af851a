/* The work of the sampled-findings programs (late_function.c, late_rank_function.c): f and g spin
 * for a given time of the calling thread's CPU time, so that their sampled shares hold however busy
 * the machine is. Each has its own loop, so that the samples name it, not a shared helper. The
 * tests look f's lines up by the SITE markers. Not static: gcc would fold two identical static
 * functions into one (-fipa-icf), and the samples could no longer tell f from g. */
#ifndef PARPERF_TEST_CPU_WORK_H
#define PARPERF_TEST_CPU_WORK_H

#include <time.h>

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

__attribute__((noinline)) double f(double seconds) { /* SITE:f_begin */
  volatile double sum = 0;
  const double end = cpu_seconds() + seconds;
  while (cpu_seconds() < end)
    for (int i = 0; i < 100000; ++i) sum = sum + (double)i;
  return sum;
} /* SITE:f_end */

__attribute__((noinline)) double g(double seconds) {
  volatile double sum = 0;
  const double end = cpu_seconds() + seconds;
  while (cpu_seconds() < end)
    for (int i = 0; i < 100000; ++i) sum = sum + (double)i;
  return sum;
}

#endif
