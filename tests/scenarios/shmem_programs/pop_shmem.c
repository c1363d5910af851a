/* The OpenSHMEM cases of the POP factors and the critical path (docs/efficiency-model.md), under
 * `parperf run --np N --trace`.
 *
 * Usage: pop_shmem imbalance|chain [unit_ms=40] [rounds=2]
 *
 *   imbalance  each round PE r works (1 + 2r) units, then shmem_barrier_all: load balance N / (2N - 1).
 *   chain      each round PE r > 0 waits in shmem_int_wait_until for PE r - 1 to set its flag, works one
 *              unit, and sets PE r + 1's flag with shmem_int_p; then shmem_barrier_all. The units run
 *              one after the other: serialisation efficiency 1/N.
 *
 * Work sleeps. Each PE prints the work it really did: "pop_shmem: PE R work W s". */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shmem_work.h"

static int flag;

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const long unit = argc > 2 ? atol(argv[2]) : 40;
  const int rounds = argc > 3 ? atoi(argv[3]) : 2;
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if ((strcmp(mode, "imbalance") && strcmp(mode, "chain")) || unit < 0 || rounds < 1) {
    if (me == 0) fprintf(stderr, "usage: pop_shmem imbalance|chain [unit_ms] [rounds]\n");
    shmem_finalize();
    return 2;
  }
  double worked = 0;
  shmem_barrier_all();
  for (int round = 1; round <= rounds; ++round) {
    if (!strcmp(mode, "chain") && me > 0) shmem_int_wait_until(&flag, SHMEM_CMP_EQ, round);
    const double start = seconds();
    work_ms(strcmp(mode, "chain") ? (1 + 2 * me) * unit : unit);
    worked += seconds() - start;
    if (!strcmp(mode, "chain") && me < n - 1) shmem_int_p(&flag, round, me + 1);
    shmem_barrier_all();
  }
  fprintf(stderr, "pop_shmem: PE %d work %.6f s\n", me, worked);
  shmem_finalize();
  return 0;
}
