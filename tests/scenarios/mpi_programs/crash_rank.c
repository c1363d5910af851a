/* One rank dies of a signal while the others wait in a barrier.
 *
 * Usage: crash_rank segv|kill   on N >= 2 ranks (the tests run 3)
 *
 * All ranks meet in MPI_Barrier (site start_barrier). Rank 1 works 100 ms (sleeping, mpi_work.h),
 * then `segv` writes through a null pointer (site segv, SIGSEGV) or `kill` raises SIGKILL
 * (site kill). The others work 50 ms and enter MPI_Barrier (site barrier), which never completes:
 * mpirun ends them when it sees rank 1 die (SIGTERM, SIGKILL a while later).
 *
 * Expected: the job fails (mpirun exits non-zero). Measured, the other ranks' profiles land (written
 * on SIGTERM). segv: rank 1's profile is written by the runtime's crash handler (end reason signal
 * 11). kill: rank 1 writes nothing, and the report says rank 1 is missing.
 *
 * Prints nothing on stdout. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "mpi_program.h"
#include "mpi_work.h"

/* Null, but the compiler cannot know: the store below must happen, not be turned into a trap. */
static int* volatile null_pointer = NULL;

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int segv = argc > 1 && strcmp(argv[1], "segv") == 0;
  const int sigkill = argc > 1 && strcmp(argv[1], "kill") == 0;
  if (size < 2 || (!segv && !sigkill)) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N crash_rank segv|kill (N >= 2)\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  if (rank == 1) {
    work_ms(100);
    if (segv) *null_pointer = 1; /* SITE:segv */
    if (sigkill) raise(SIGKILL); /* SITE:kill */
  }
  work_ms(50);
  MPI_Barrier(MPI_COMM_WORLD); /* SITE:barrier */
  fprintf(stderr, "crash_rank: rank %d left a barrier that rank 1 never entered\n", rank);
  MPI_Finalize();
  return 1;
}
