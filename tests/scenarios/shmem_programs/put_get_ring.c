/* A put/get ring whose one-sided traffic is known to the byte.
 *
 * Every PE p of n, in kRounds rounds: puts kPutInts ints into PE (p+1)%n's `inbox` with
 * shmem_int_put (SITE:ring_put), gets kGetLongs longs from PE (p-1+n)%n's `outbox` with
 * shmem_long_get (SITE:ring_get), and then, once, adds 1 to PE 0's `counter` with
 * shmem_int_atomic_fetch_add (SITE:ring_atomic). So the traffic matrix holds exactly, for every p:
 *   p -> (p+1)%n  put     kRounds calls, kRounds * kPutInts * sizeof(int) bytes
 *   p -> (p-1+n)%n get    kRounds calls, kRounds * kGetLongs * sizeof(long) bytes
 *   p -> 0        atomic  1 call, sizeof(int) bytes
 * (with n = 2 the put and the get go to the same PE). The program checks its data and prints
 * "ring ok" on PE 0; it exits 1 on a wrong value. */
#include <shmem.h>
#include <stdio.h>

enum { kRounds = 10, kPutInts = 1000, kGetLongs = 300 };

static int inbox[kPutInts];
static long outbox[kGetLongs];
static int counter;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  const int n = shmem_n_pes();
  const int right = (me + 1) % n;
  const int left = (me - 1 + n) % n;
  int mine[kPutInts];
  long got[kGetLongs];
  for (int i = 0; i < kGetLongs; ++i) outbox[i] = me * 1000L + i;
  shmem_barrier_all();
  int bad = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kPutInts; ++i) mine[i] = me * 100000 + round * 1000 + i;
    shmem_int_put(inbox, mine, kPutInts, right);  /* SITE:ring_put */
    shmem_long_get(got, outbox, kGetLongs, left); /* SITE:ring_get */
    for (int i = 0; i < kGetLongs; ++i) bad |= got[i] != left * 1000L + i;
    shmem_barrier_all();
    for (int i = 0; i < kPutInts; ++i) bad |= inbox[i] != left * 100000 + round * 1000 + i;
    shmem_barrier_all();
  }
  (void)shmem_int_atomic_fetch_add(&counter, 1, 0); /* SITE:ring_atomic */
  shmem_barrier_all();
  if (me == 0) {
    bad |= counter != n;
    if (!bad) printf("ring ok\n");
  }
  shmem_finalize();
  return bad ? 1 : 0;
}
