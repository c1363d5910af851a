/* An MPI program built -O2 without frame pointers (mpicc), for the unwinding of sampled call paths in
 * every rank of a job.
 *
 * Each rank spends 300 ms of its CPU time in heavy and 100 ms in light (through `through`): heavy has
 * 75 % of the two's samples, and every sample's path reaches main. */
#include <mpi.h>
#include <stdio.h>

#include "spin_work.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double sum = heavy(0.300);
  through(0.100);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("ranks done (%g)\n", sum > 0 ? 1.0 : 0.0);
  MPI_Finalize();
  return 0;
}
