/* One rank calls MPI_Abort while the others wait in a barrier.
 *
 * Usage: abort_rank   on N >= 2 ranks (the tests run 3)
 *
 * All ranks meet in MPI_Barrier (site start_barrier). Rank 1 works 100 ms (sleeping, mpi_work.h)
 * and calls MPI_Abort(MPI_COMM_WORLD, 3) (site abort). The others work 50 ms and enter MPI_Barrier
 * (site barrier), which never completes: mpirun ends them (SIGTERM, SIGKILL a while later).
 *
 * Expected: the job fails (mpirun exits non-zero). Measured, every rank's profile lands: rank 1's
 * written by MPI_Abort (end reason mpi_abort), the others' when mpirun's SIGTERM reaches them; the
 * report names the ranks whose profile is missing (none, or the ranks SIGKILL reached first).
 *
 * Prints nothing on stdout. */
#include <mpi.h>
#include <stdio.h>

#include "mpi_program.h"
#include "mpi_work.h"

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  if (size < 2) {
    fprintf(stderr, "usage: mpirun -np N abort_rank (N >= 2)\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  if (rank == 1) {
    work_ms(100);
    MPI_Abort(MPI_COMM_WORLD, 3); /* SITE:abort */
  }
  work_ms(50);
  MPI_Barrier(MPI_COMM_WORLD); /* SITE:barrier */
  fprintf(stderr, "abort_rank: rank %d left a barrier that rank 1 never entered\n", rank);
  MPI_Finalize();
  return 1;
}
