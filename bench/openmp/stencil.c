/* A realistic OpenMP kernel for bench/openmp/overhead.sh: Jacobi sweeps of the 2-D heat equation on
 * an N x N grid (fixed hot top edge, cold other edges), each sweep one `parallel for` with a
 * reduction of the residual, on 2 threads. About a second of work, a few dozen OMPT callbacks a
 * sweep: the collector's cost should vanish in it.
 *
 * Usage: parperf-bench-omp-stencil [N=2000] [sweeps=200]
 * Prints the grid, the sweeps, a checksum (the same plain or measured) and the seconds the sweeps
 * took. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 2000;
  const long sweeps = argc > 2 ? atol(argv[2]) : 200;
  if (n < 3 || sweeps < 1) {
    fprintf(stderr, "usage: %s [N >= 3] [sweeps >= 1]\n", argv[0]);
    return 2;
  }
  double* u = calloc((size_t)(n * n), sizeof *u);
  double* next = calloc((size_t)(n * n), sizeof *next);
  if (!u || !next) {
    fprintf(stderr, "%s: out of memory for a %ld x %ld grid\n", argv[0], n, n);
    return 1;
  }
  for (long j = 0; j < n; ++j) u[j] = next[j] = 100.0;

  double residual = 0.0;
  const double start = omp_get_wtime();
  for (long s = 0; s < sweeps; ++s) {
    residual = 0.0;
#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : residual)
    for (long i = 1; i < n - 1; ++i) {
      for (long j = 1; j < n - 1; ++j) {
        const double value =
            0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
        const double change = value - u[i * n + j];
        residual += change * change;
        next[i * n + j] = value;
      }
    }
    double* swap = u;
    u = next;
    next = swap;
  }
  const double seconds = omp_get_wtime() - start;

  double checksum = 0.0;
  for (long k = 0; k < n * n; ++k) checksum += u[k];
  printf("grid: %ld x %ld\nsweeps: %ld\nchecksum: %.6f\nresidual: %.6e\nseconds: %.9f\n", n, n, sweeps,
         checksum, residual, seconds);
  free(u);
  free(next);
  return 0;
}
