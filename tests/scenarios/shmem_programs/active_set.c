/* Collectives over OpenSHMEM active sets, each linked by the analysis as one instance of its set's
 * members (docs/efficiency-model.md).
 *
 * Usage: active_set (4 PEs)
 *
 * The even PEs (PE_start 0, logPE_stride 1, PE_size 2) and the odd ones (1, 1, 2) each: a
 * shmem_barrier over their pair after PE 2 worked 200 ms (SITE:set_barrier), a shmem_broadcast64
 * from the pair's second PE (SITE:set_broadcast); then all four a shmem_long_sum_to_all (0, 0, 4)
 * (SITE:set_reduce) and shmem_barrier_all. 12 collective calls over active sets: 5 instances (2
 * barriers, 2 broadcasts, 1 reduction). PE 0 prints "active_set ok" when every value arrived. */
#include <shmem.h>
#include <stdio.h>

#include "shmem_work.h"

static long barrier_sync[SHMEM_BARRIER_SYNC_SIZE];
static long broadcast_sync[SHMEM_BCAST_SYNC_SIZE];
static long reduce_sync[SHMEM_REDUCE_SYNC_SIZE];
static long work[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long value, received, mine, sum;

int main(void) {
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) barrier_sync[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) broadcast_sync[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) reduce_sync[i] = SHMEM_SYNC_VALUE;
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (n != 4) {
    if (me == 0) fprintf(stderr, "active_set: run on 4 PEs\n");
    shmem_finalize();
    return 2;
  }
  const int pair = me % 2;
  value = 100 + me;
  mine = me;
  shmem_barrier_all();
  if (me == 2) work_ms(200);
  shmem_barrier(pair, 1, 2, barrier_sync);                                /* SITE:set_barrier */
  shmem_broadcast64(&received, &value, 1, 1, pair, 1, 2, broadcast_sync); /* SITE:set_broadcast */
  shmem_long_sum_to_all(&sum, &mine, 1, 0, 0, 4, work, reduce_sync);      /* SITE:set_reduce */
  shmem_barrier_all();
  const int bad = (me < 2 && received != 100 + me + 2) || sum != 6;
  if (me == 0 && !bad) printf("active_set ok\n");
  if (bad) fprintf(stderr, "active_set: PE %d received %ld, sum %ld\n", me, received, sum);
  shmem_finalize();
  return bad;
}
