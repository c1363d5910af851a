/* A SHMEM stencil, for bench/shmem/overhead.sh: the whole-run overhead a real kernel sees.
 *
 * Usage: oshrun -np N parperf-bench-shmem-stencil [n=1024] [sweeps=400]
 *
 * A 1-D decomposition of an n x n Jacobi grid over the PEs: every sweep each PE puts its first and
 * last rows into its neighbours' halo rows (shmem_double_put_nbi, then shmem_quiet), synchronizes
 * (shmem_barrier_all) and relaxes its rows; every 10 sweeps a shmem_double_max_to_all of the
 * change. Prints on PE 0 the loop's seconds (between two barriers) and the final change. */
#include <math.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long p_sync[SHMEM_REDUCE_SYNC_SIZE];
static double p_work[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double change_local, change_all;

int main(int argc, char** argv) {
  shmem_init();
  const int me = shmem_my_pe();
  const int pes = shmem_n_pes();
  const int n = argc > 1 ? atoi(argv[1]) : 1024;
  const int sweeps = argc > 2 ? atoi(argv[2]) : 400;
  const int rows = n / pes;
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) p_sync[i] = SHMEM_SYNC_VALUE;
  /* rows + 2 halo rows, symmetric: the neighbours put into them. */
  double* grid = shmem_malloc(sizeof(double) * (size_t)(rows + 2) * (size_t)n);
  double* next = malloc(sizeof(double) * (size_t)(rows + 2) * (size_t)n);
  for (int r = 0; r < rows + 2; ++r)
    for (int c = 0; c < n; ++c) grid[r * n + c] = next[r * n + c] = (me == 0 && r == 1) ? 1.0 : 0.0;
  shmem_barrier_all();
  const double start = now();
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    if (me > 0) shmem_double_put_nbi(&grid[(rows + 1) * n], &grid[1 * n], (size_t)n, me - 1);
    if (me < pes - 1) shmem_double_put_nbi(&grid[0], &grid[rows * n], (size_t)n, me + 1);
    shmem_quiet();
    shmem_barrier_all();
    double change = 0;
    for (int r = 1; r <= rows; ++r)
      for (int c = 1; c < n - 1; ++c) {
        const double v = 0.25 * (grid[(r - 1) * n + c] + grid[(r + 1) * n + c] + grid[r * n + c - 1] +
                                 grid[r * n + c + 1]);
        change = fmax(change, fabs(v - grid[r * n + c]));
        next[r * n + c] = v;
      }
    shmem_barrier_all(); /* the neighbours have read this PE's rows before they change */
    for (int r = 1; r <= rows; ++r)
      for (int c = 1; c < n - 1; ++c) grid[r * n + c] = next[r * n + c];
    if (sweep % 10 == 9) {
      change_local = change;
      shmem_double_max_to_all(&change_all, &change_local, 1, 0, 0, pes, p_work, p_sync);
    }
  }
  shmem_barrier_all();
  const double seconds = now() - start;
  if (me == 0)
    printf("pes: %d\nn: %d\nsweeps: %d\nchange: %g\nseconds: %.9f\n", pes, n, sweeps, change_all, seconds);
  free(next);
  shmem_free(grid);
  shmem_finalize();
  return 0;
}
