/* A barrier that PEs reach at known times: in each of kRounds rounds, PE p works p * kStepMs ms and
 * then enters shmem_barrier_all (SITE:late_barrier). The last PE (n-1) arrives (n-1) * kStepMs after
 * PE 0, so PE p waits (n-1-p) * kStepMs there per round, and the barrier's synchronization (the sum
 * over PEs of the wait for the last arrival) is kStepMs * n(n-1)/2 per round. */
#include <shmem.h>
#include <stdio.h>

#include "shmem_work.h"

enum { kRounds = 3, kStepMs = 100 };

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  for (int round = 0; round < kRounds; ++round) {
    work_ms((long)me * kStepMs);
    shmem_barrier_all(); /* SITE:late_barrier */
  }
  if (me == 0) printf("barrier ok\n");
  shmem_finalize();
  return 0;
}
