/* The OpenSHMEM cases of the POP factors and the critical path (docs/efficiency-model.md), under
 * `parperf run --np N --trace`.
 *
 * Usage: pop_shmem imbalance|chain|lock [unit_ms=40] [rounds=2]
 *
 *   imbalance  each round PE r works (1 + 2r) units, then shmem_barrier_all: load balance N / (2N - 1).
 *   chain      each round PE r > 0 waits in shmem_int_wait_until for PE r - 1 to set its flag, works one
 *              unit, and sets PE r + 1's flag with shmem_int_p; then shmem_barrier_all. The units run
 *              one after the other: serialisation efficiency 1/N.
 *   lock       each round every PE takes a lock with shmem_set_lock, works one unit holding it and
 *              clears it; then shmem_barrier_all. The lock is a global variable in odd rounds (a
 *              different address in each PE: the program is loaded at random places) and on the
 *              symmetric heap in even ones. The PEs work one after the other: serialisation
 *              efficiency 1/N, load balance and transfer efficiency 1.
 *
 * Work sleeps. Each PE prints the work it really did: "pop_shmem: PE R work W s". */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shmem_work.h"

static int flag;
static long global_lock;

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
  const int locked = !strcmp(mode, "lock");
  if ((strcmp(mode, "imbalance") && strcmp(mode, "chain") && !locked) || unit < 0 || rounds < 1) {
    if (me == 0) fprintf(stderr, "usage: pop_shmem imbalance|chain|lock [unit_ms] [rounds]\n");
    shmem_finalize();
    return 2;
  }
  double worked = 0;
  long* heap_lock = shmem_calloc(1, sizeof(long));
  shmem_barrier_all();
  for (int round = 1; round <= rounds; ++round) {
    if (!strcmp(mode, "chain") && me > 0) shmem_int_wait_until(&flag, SHMEM_CMP_EQ, round);
    long* lock = round % 2 ? &global_lock : heap_lock;
    if (locked) shmem_set_lock(lock);
    const double start = seconds();
    work_ms(strcmp(mode, "imbalance") ? unit : (1 + 2 * me) * unit);
    worked += seconds() - start;
    if (locked) shmem_clear_lock(lock);
    if (!strcmp(mode, "chain") && me < n - 1) shmem_int_p(&flag, round, me + 1);
    shmem_barrier_all();
  }
  fprintf(stderr, "pop_shmem: PE %d work %.6f s\n", me, worked);
  shmem_free(heap_lock);
  shmem_finalize();
  return 0;
}
