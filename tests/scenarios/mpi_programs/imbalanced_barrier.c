/* Imbalance before a barrier: rank k arrives k units after rank 0.
 *
 * Usage: imbalanced_barrier [R=3] [unit_ms=50]   on N ranks (the tests run 2 to 4)
 *
 * All ranks meet in MPI_Barrier (site start_barrier). Then R times: rank k works (k + 1) x unit ms
 * (sleeping, mpi_work.h: N ranks share 2 cores) and enters MPI_Barrier (site barrier).
 *
 * Expected, per instance of site barrier: rank k arrives k x unit after rank 0, rank N-1 last, and
 * all leave when it arrives. Synchronization = sum over p of (max_q arrive_q - arrive_p)
 * = sum over k of (N-1-k) x unit = unit x N(N-1)/2 per instance, R times that in all: with the
 * defaults 150 ms (N=2), 450 ms (N=3), 900 ms (N=4). Rank k waits (N-1-k) x unit per instance: its
 * communication at the barrier is R (N-1-k) x unit (rank 0: R (N-1) x unit, rank N-1: about 0). Time
 * variation (leaving) about 0; idle time about 0 (all ranks end together); productive time: the work,
 * sum over k of R (k+1) x unit. The start barrier adds only how unevenly the ranks leave MPI_Init.
 * The communicator MPI_COMM_WORLD sees R + 1 barrier instances (sequence 0: the start barrier).
 *
 * Prints on rank 0: "imbalanced_barrier: N ranks, R barriers". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_program.h"
#include "mpi_work.h"

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int repetitions = argc > 1 ? atoi(argv[1]) : 3;
  const int unit = argc > 2 ? atoi(argv[2]) : 50;
  if (repetitions < 1 || unit < 0) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N imbalanced_barrier [R >= 1] [unit_ms >= 0]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  for (int r = 0; r < repetitions; ++r) {
    work_ms((rank + 1) * unit);
    MPI_Barrier(MPI_COMM_WORLD); /* SITE:barrier */
  }
  if (rank == 0) printf("imbalanced_barrier: %d ranks, %d barriers\n", size, repetitions);
  MPI_Finalize();
  return 0;
}
