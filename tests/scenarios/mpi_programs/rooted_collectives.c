/* Rooted collectives whose root, or whose last contributor, is late: Late Broadcast and Early Reduce.
 *
 * Usage: rooted_collectives [R=2] [ms=100]   on N >= 2 ranks (the tests run 3)
 *
 * R times, all ranks starting together from an MPI_Barrier (site step_barrier):
 *   - rank 0, the root, works `ms` ms (sleeping, mpi_work.h), then broadcasts 16 ints (site
 *     late_bcast); the other ranks enter the broadcast at once and wait there for the root.
 *   - rank N-1 works `ms` ms, then every rank enters MPI_Reduce (sum of 16 ints to root 0, site
 *     early_reduce); the root enters at once and waits there for rank N-1. (The others leave the
 *     reduce at once and wait for rank N-1 at the next step's barrier: Wait at Barrier.)
 *
 * Expected wait states (the event trace): Late Broadcast at late_bcast of about `ms` per other rank
 * and repetition, (N-1) x R x ms in all (400 ms with N = 3 and the defaults), caused by rank 0;
 * Early Reduce at early_reduce of about R x ms (200 ms), on rank 0 alone, caused by rank N-1.
 *
 * Prints on rank 0: "rooted_collectives: N ranks, R repetitions, sum S": the reduced values added
 * up, S = 16 x (0 + 1 + ... + N-1) x (1 + 2 + ... + R) (144 with N = 3, R = 2). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_program.h"
#include "mpi_work.h"

enum { kCount = 16 };

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int repetitions = argc > 1 ? atoi(argv[1]) : 2;
  const int ms = argc > 2 ? atoi(argv[2]) : 100;
  if (size < 2 || repetitions < 1 || ms < 0) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N rooted_collectives [R >= 1] [ms >= 0] (N >= 2)\n");
    MPI_Finalize();
    return 2;
  }

  int values[kCount], sums[kCount];
  long total = 0;
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(MPI_COMM_WORLD); /* SITE:step_barrier */
    if (rank == 0) {
      work_ms(ms);
      for (int i = 0; i < kCount; ++i) values[i] = r + 1;
    }
    MPI_Bcast(values, kCount, MPI_INT, 0, MPI_COMM_WORLD); /* SITE:late_bcast */
    if (rank == size - 1) work_ms(ms);
    for (int i = 0; i < kCount; ++i) values[i] *= rank;
    MPI_Reduce(values, sums, kCount, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD); /* SITE:early_reduce */
    if (rank == 0)
      for (int i = 0; i < kCount; ++i) total += sums[i];
  }
  if (rank == 0) printf("rooted_collectives: %d ranks, %d repetitions, sum %ld\n", size, repetitions, total);
  MPI_Finalize();
  return 0;
}
