/* The OpenSHMEM collector's cost per call, for bench/shmem/overhead.sh: small puts and gets.
 *
 * Usage: oshrun -np N parperf-bench-shmem-put-get [calls=1000000]
 *
 * Every PE makes `calls` shmem_long_p and `calls` shmem_long_g to its right neighbour's memory, in
 * turn, at two call sites (on one host both are load/store through shared memory: a few ns each,
 * so the time parperf adds shows plainly). The time parperf adds to the loop divided by a PE's calls
 * is the cost of one measured call.
 *
 * Prints on PE 0 the PEs, the calls of the loop on a PE, and the loop's seconds (between two
 * barriers). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long cell;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  shmem_init();
  const int me = shmem_my_pe();
  const int right = (me + 1) % shmem_n_pes();
  const long calls = argc > 1 ? atol(argv[1]) : 1000000;
  long sum = 0;
  shmem_barrier_all();
  const double start = now();
  for (long i = 0; i < calls; ++i) {
    shmem_long_p(&cell, i, right);
    sum += shmem_long_g(&cell, right);
  }
  shmem_barrier_all();
  const double seconds = now() - start;
  if (me == 0)
    printf("pes: %d\ncalls: %ld\nchecksum: %ld\nseconds: %.9f\n", shmem_n_pes(), 2 * calls, sum & 1, seconds);
  shmem_finalize();
  return 0;
}
