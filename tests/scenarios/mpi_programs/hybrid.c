/* MPI + OpenMP: imbalance between the threads of a rank and between the ranks.
 *
 * Usage: OMP_NUM_THREADS=2 mpirun -np 2 hybrid [R=3]   (2 ranks of 2 threads; built with gcc's
 *                                                        -fopenmp, libgomp, which parperf replaces)
 *
 * MPI_Init_thread asks for MPI_THREAD_FUNNELED (site init_thread); the ranks meet in MPI_Barrier
 * (site start_barrier). Then R times: a `parallel for schedule(static)` over 2 iterations, one per
 * thread (site omp_loop), each sleeping (mpi_work.h) its time: rank 0 40 and 40 ms, rank 1 60 and
 * 100 ms; then MPI_Allreduce on the master thread, outside the parallel region (site allreduce).
 *
 * Expected: per repetition rank 0 reaches the Allreduce after 40 ms, rank 1 after 100 ms.
 *   Ranks as processors (the default): synchronization R x 60 ms = 180 ms, all of it rank 0's wait
 *   at site allreduce (its communication about 180 ms, rank 1's about 0).
 *   Rank 1's OpenMP view (`parperf report --rank 1`): 2 threads as processors; thread 0 waits 40 ms
 *   per repetition at the loop's implicit barrier: desync R x 40 ms = 120 ms. Rank 0's threads are
 *   balanced (desync about 0).
 *
 * Prints on rank 0: "hybrid: MPI_THREAD_FUNNELED or better, checksum C", C = R x 2 x (1 + 2) = 6R
 * (each rank sums the iteration numbers 1 and 2 of its loop, the Allreduce adds the ranks). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_work.h"

/* Milliseconds of iteration i on rank r. */
static const int kIterationMs[2][2] = {{40, 40}, {60, 100}};

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided); /* SITE:init_thread */
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int repetitions = argc > 1 ? atoi(argv[1]) : 3;
  if (size != 2 || repetitions < 1 || provided < MPI_THREAD_FUNNELED) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np 2 hybrid [R >= 1] (MPI_THREAD_FUNNELED: %d)\n", provided);
    MPI_Finalize();
    return 2;
  }

  long checksum = 0;
  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  for (int r = 0; r < repetitions; ++r) {
    long local = 0;
#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : local) /* SITE:omp_loop */
    for (int i = 0; i < 2; ++i) {
      work_ms(kIterationMs[rank][i]);
      local += i + 1;
    }
    long sum = 0;
    MPI_Allreduce(&local, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); /* SITE:allreduce */
    checksum += sum;
  }
  if (rank == 0) printf("hybrid: MPI_THREAD_FUNNELED or better, checksum %ld\n", checksum);
  MPI_Finalize();
  return 0;
}
