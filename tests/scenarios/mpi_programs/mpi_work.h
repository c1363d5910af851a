/* Time of a known wall-clock length for the MPI scenario programs.
 *
 * The tests run up to 4 ranks on 2 cores, and Open MPI polls while a rank waits in a call, so a
 * rank that "works" by spinning would compete with the waiting ranks for the cores and come late by
 * an unknown amount. The programs therefore mostly sleep for their work: parperf measures wall-clock
 * time, and a sleeping rank is as busy, for the characteristics, as a computing one. A sleep lasts at
 * least what it asks for, plus the time the rank waits for a core when it wakes up.
 *
 * work_ms(ms)             sleeps `ms` milliseconds;
 * work_until(start, ms)   sleeps until `ms` milliseconds after `start` (a mpi_work_now() value), or
 *                         returns at once when that moment has passed: a rank that follows a
 *                         timeline does not accumulate the delays of its earlier steps. */
#ifndef PARPERF_MPI_WORK_H
#define PARPERF_MPI_WORK_H

#include <errno.h>
#include <time.h>

static inline struct timespec mpi_work_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now;
}

static inline void work_until(struct timespec start, int ms) {
  struct timespec deadline = start;
  deadline.tv_sec += ms / 1000;
  deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
  }
}

static inline void work_ms(int ms) { work_until(mpi_work_now(), ms); }

#endif /* PARPERF_MPI_WORK_H */
