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
 *                         timeline does not accumulate the delays of its earlier steps.
 * mpi_work_seconds(start) seconds since `start`: what a program prints of its own timeline, for the
 *                         tests to compare parperf's figures with what really happened on a busy
 *                         machine.
 * mpi_work_unit(argc, argv, rank, usage)  the unit of work in ms that argv[1] gives (100 without
 *                         it), or -1 after printing `usage` on rank 0 when it is negative. */
#ifndef PARPERF_MPI_WORK_H
#define PARPERF_MPI_WORK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static inline double mpi_work_seconds(struct timespec start) {
  const struct timespec now = mpi_work_now();
  return (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) * 1e-9;
}

static inline int mpi_work_unit(int argc, char** argv, int rank, const char* usage) {
  const int unit = argc > 1 ? atoi(argv[1]) : 100;
  if (unit >= 0) return unit;
  if (rank == 0) fprintf(stderr, "%s\n", usage);
  return -1;
}

#endif /* PARPERF_MPI_WORK_H */
