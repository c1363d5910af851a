/* An MPI job whose ranks walk memory differently, known by construction: rank 0 sweeps an array
 * with stride 1 (sweep's SL = 1), every other rank with stride 4 (SL = 1/4: one 8-byte word in four
 * of a 32-byte span). `parperf report` must single out rank 1 and name sweep. */
#include <mpi.h>
#include <stdio.h>

enum { N = 1 << 16 };
static double a[4 * N];

__attribute__((noinline)) double sweep(int stride) {
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += a[(long)i * stride];
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 4 * N; ++i) a[i] = i % 7;
  double sum = 0;
  for (int r = 0; r < 4; ++r) sum += sweep(rank == 0 ? 1 : 4);
  double total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("total %.1f\n", total);
  MPI_Finalize();
  return 0;
}
