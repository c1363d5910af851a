/* A realistic MPI kernel for bench/mpi/overhead.sh: Jacobi sweeps of the 2-D heat equation on an
 * N x N grid (fixed hot top edge, cold other edges) split into blocks of rows, one block a rank.
 * Each sweep exchanges the block's edge rows with the neighbours above and below (MPI_Irecv and
 * MPI_Isend of N doubles each, MPI_PROC_NULL at the grid's edges), updates the rows that need no
 * halo meanwhile, completes the exchange (MPI_Waitall) and updates the two edge rows; every 10th
 * sweep an MPI_Allreduce sums the residual. About a second at 2 ranks with the defaults, 5 MPI calls
 * a sweep: the collector's cost should vanish in it.
 *
 * Usage: mpirun -np N parperf-bench-mpi-halo-stencil [N=2048] [sweeps=200]
 * Prints on rank 0 the grid, the ranks, the sweeps, the MPI calls of the loop on a rank, a checksum
 * (the same plain or measured) and the loop's seconds on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* One Jacobi update of row i (1 .. rows) of a block with halo rows 0 and rows + 1; returns the sum of
 * the squared changes. */
static double update_row(const double* u, double* next, long n, long i) {
  double residual = 0.0;
  for (long j = 1; j < n - 1; ++j) {
    const double value =
        0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
    const double change = value - u[i * n + j];
    residual += change * change;
    next[i * n + j] = value;
  }
  return residual;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long n = argc > 1 ? atol(argv[1]) : 2048;
  const long sweeps = argc > 2 ? atol(argv[2]) : 200;
  if (n < 3 || n > (1L << 20) || sweeps < 1 || n / size < 2) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N %s [N >= 2 x ranks] [sweeps >= 1]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  /* Rows first .. first + rows - 1 of the grid, stored as rows 1 .. rows; rows 0 and rows + 1 are
   * the halo (or the grid's fixed edge). */
  const long first = n * rank / size;
  const long rows = n * (rank + 1) / size - first;
  double* u = calloc((size_t)((rows + 2) * n), sizeof *u);
  double* next = calloc((size_t)((rows + 2) * n), sizeof *next);
  if (u == NULL || next == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) {
    for (long j = 0; j < n; ++j) u[n + j] = next[n + j] = 100.0; /* the hot top edge: grid row 0 */
  }
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  /* The grid's first and last rows are fixed: the ranks holding them do not update them. */
  const long lowest = rank == 0 ? 2 : 1;
  const long highest = rank == size - 1 ? rows - 1 : rows;
  const int count = (int)n;

  double residual = 0.0;
  long calls = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long s = 0; s < sweeps; ++s) {
    MPI_Request requests[4];
    MPI_Irecv(u, count, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(u + (rows + 1) * n, count, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(u + n, count, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(u + rows * n, count, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &requests[3]);
    double local = 0.0;
    for (long i = lowest + 1; i < highest; ++i) local += update_row(u, next, n, i);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    local += update_row(u, next, n, lowest);
    if (highest > lowest) local += update_row(u, next, n, highest);
    calls += 5;
    if (s % 10 == 9) {
      MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      calls += 1;
    }
    double* swap = u;
    u = next;
    next = swap;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;

  double local_sum = 0.0;
  for (long i = 1; i <= rows; ++i)
    for (long j = 0; j < n; ++j) local_sum += u[i * n + j];
  double checksum = 0.0;
  MPI_Reduce(&local_sum, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf(
        "grid: %ld x %ld\nranks: %d\nsweeps: %ld\ncalls per rank: %ld\nchecksum: %.6f\nresidual: %.6e\n"
        "seconds: %.9f\n",
        n, n, size, sweeps, calls, checksum, residual, seconds);
  }
  free(u);
  free(next);
  MPI_Finalize();
  return 0;
}
