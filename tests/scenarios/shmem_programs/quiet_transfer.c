/* The time of a shmem_quiet is the transfer of the puts it completes (docs/efficiency-model.md).
 *
 * Usage: quiet_transfer BYTES [rounds=2]
 *
 * Each round every PE puts BYTES (at most 32 MiB) into PE (me + 1) % n's `inbox` with
 * shmem_putmem_nbi (SITE:quiet_put), calls shmem_quiet (SITE:quiet_quiet), then shmem_barrier_all.
 *
 * Where the time goes, as measured under Open MPI 4.1's OSHMEM in shared memory (2 PEs, 32 MiB):
 * a blocking shmem_putmem copies inside the call (0.04-0.25 s) and the quiet after it is short, but
 * shmem_putmem_nbi returns at once (0.1 ms) and the copy happens in shmem_quiet (0.05-0.3 s). So the
 * non-blocking put is the one whose transfer the quiet holds.
 *
 * Each PE prints the time it spent in each round's quiet: "quiet_transfer: PE R round K quiet Q s". */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kMaxBytes = 32 << 20 };

static char inbox[kMaxBytes];
static char outbox[kMaxBytes];

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  const long bytes = argc > 1 ? atol(argv[1]) : -1;
  const int rounds = argc > 2 ? atoi(argv[2]) : 2;
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (bytes < 1 || bytes > kMaxBytes || rounds < 1) {
    if (me == 0) fprintf(stderr, "usage: quiet_transfer BYTES (1 to %d) [rounds]\n", kMaxBytes);
    shmem_finalize();
    return 2;
  }
  memset(outbox, me + 1, (size_t)bytes);
  shmem_barrier_all();
  for (int round = 0; round < rounds; ++round) {
    shmem_putmem_nbi(inbox, outbox, (size_t)bytes, (me + 1) % n); /* SITE:quiet_put */
    const double start = seconds();
    shmem_quiet(); /* SITE:quiet_quiet */
    fprintf(stderr, "quiet_transfer: PE %d round %d quiet %.6f s\n", me, round, seconds() - start);
    shmem_barrier_all();
  }
  const int left = (me - 1 + n) % n;
  const int bad = inbox[0] != left + 1 || inbox[bytes - 1] != left + 1;
  if (bad) fprintf(stderr, "quiet_transfer: PE %d received wrong data\n", me);
  shmem_finalize();
  return bad;
}
