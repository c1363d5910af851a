/* Contention for one global lock: in each of kRounds rounds every PE calls shmem_set_lock
 * (SITE:contended_lock) at the same moment (after a barrier) and holds the lock kHoldMs ms. The PEs
 * get it one after the other, so the k-th to get it waited k * kHoldMs: over all PEs the lock's wait
 * is kHoldMs * n(n-1)/2 per round. The critical section increments a counter on PE 0, which must end
 * at n * kRounds. */
#include <shmem.h>
#include <stdio.h>

#include "shmem_work.h"

enum { kRounds = 2, kHoldMs = 100 };

static long lock;
static int total;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  const int n = shmem_n_pes();
  for (int round = 0; round < kRounds; ++round) {
    shmem_barrier_all();
    shmem_set_lock(&lock); /* SITE:contended_lock */
    const int value = shmem_int_g(&total, 0);
    work_ms(kHoldMs);
    shmem_int_p(&total, value + 1, 0);
    shmem_quiet();
    shmem_clear_lock(&lock);
  }
  shmem_barrier_all();
  int bad = 0;
  if (me == 0) {
    bad = total != n * kRounds;
    if (!bad) printf("lock ok\n");
  }
  shmem_finalize();
  return bad;
}
