/* Busy work of a known wall-clock length for the scenario programs (C and C++).
 *
 * The loop spins on CLOCK_MONOTONIC, so the time spent is at least `ms` milliseconds whatever the
 * machine's load, and only a scheduling delay more: the ground truth the tests compare against. */
#ifndef PARPERF_SCENARIO_BURN_H
#define PARPERF_SCENARIO_BURN_H

#include <time.h>

static inline double scenario_seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Computes for `ms` milliseconds of wall-clock time; returns a value the caller should use so the
 * work is not optimised away. */
static inline double burn_for_ms(int ms) {
  const double end = scenario_seconds(CLOCK_MONOTONIC) + ms * 1e-3;
  double x = 1.0;
  while (scenario_seconds(CLOCK_MONOTONIC) < end) x = x * 1.0000001 + 1e-9;
  return x;
}

#endif /* PARPERF_SCENARIO_BURN_H */
