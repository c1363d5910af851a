/* Work of a known wall-clock length for the scenario programs (C and C++): the ground truth the
 * tests compare against.
 *
 * sleep_for_ms(ms)  sleeps until `ms` milliseconds of CLOCK_MONOTONIC have passed. parperf's
 *                   characteristics are wall-clock based, so a sleeping thread is as busy, for them,
 *                   as a computing one, and it needs no core: when other processes compete for the
 *                   cores it still ends on time (a sleep lasts at least what it asks for, plus the
 *                   wake-up: tens of microseconds, more when every core is taken). Use it unless the
 *                   test is about CPU time.
 * burn_for_ms(ms)   spins on CLOCK_MONOTONIC for `ms` milliseconds, using the CPU: at least that
 *                   long whatever the load, but a thread that loses its core near the end overshoots
 *                   by a scheduler time slice (several ms) when more threads than cores want to run.
 *                   For what CPU time must show.
 * sleep_overshoot_seconds()  how much later than their deadlines this program's sleeps and burns
 *                   ended, over all its threads: the scheduling noise the program met, which a
 *                   program prints (print_sleep_overshoot: "sleep overshoot: S s" on stderr) so that
 *                   its test can allow that much (tests/support/sleep_overshoot.hpp). */
#ifndef PARPERF_SCENARIO_BURN_H
#define PARPERF_SCENARIO_BURN_H

#include <errno.h>
#include <stdio.h>
#include <time.h>

static inline double scenario_seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The program's total, in nanoseconds (one per program: each program is one source file). */
static inline long long* sleep_overshoot_ns(void) {
  static long long total;
  return &total;
}

/* Computes for `ms` milliseconds of wall-clock time; returns a value the caller should use so the
 * work is not optimised away. How late it noticed its end (it lost its core near it) counts as
 * overshoot too. */
static inline double burn_for_ms(int ms) {
  const double end = scenario_seconds(CLOCK_MONOTONIC) + ms * 1e-3;
  double x = 1.0;
  double now = scenario_seconds(CLOCK_MONOTONIC);
  while (now < end) {
    x = x * 1.0000001 + 1e-9;
    now = scenario_seconds(CLOCK_MONOTONIC);
  }
  __atomic_fetch_add(sleep_overshoot_ns(), (long long)((now - end) * 1e9), __ATOMIC_RELAXED);
  return x;
}

static inline void sleep_for_ms(int ms) {
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  const long long nanoseconds = deadline.tv_nsec + ms * 1000000LL;
  deadline.tv_sec += (time_t)(nanoseconds / 1000000000LL);
  deadline.tv_nsec = (long)(nanoseconds % 1000000000LL);
  /* An absolute deadline: a signal that interrupts the sleep does not lengthen it. */
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
  }
  struct timespec end;
  clock_gettime(CLOCK_MONOTONIC, &end);
  const long long late = (end.tv_sec - deadline.tv_sec) * 1000000000LL + (end.tv_nsec - deadline.tv_nsec);
  __atomic_fetch_add(sleep_overshoot_ns(), late, __ATOMIC_RELAXED);
}

static inline double sleep_overshoot_seconds(void) {
  return (double)__atomic_load_n(sleep_overshoot_ns(), __ATOMIC_RELAXED) * 1e-9;
}

/* On stderr: stdout is the program's result, the same measured or not. */
static inline void print_sleep_overshoot(void) {
  fprintf(stderr, "sleep overshoot: %.6f s\n", sleep_overshoot_seconds());
}

#endif /* PARPERF_SCENARIO_BURN_H */
