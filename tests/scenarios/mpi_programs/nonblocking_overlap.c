/* Non-blocking exchange overlapped with computation.
 *
 * Usage: nonblocking_overlap [R=4] [ms=50] [bytes=4194304]   on N >= 2 ranks in a ring
 *
 * All ranks meet in MPI_Barrier (site start_barrier). Then R times each rank posts MPI_Irecv of
 * `bytes` from its left neighbour (site irecv) and MPI_Isend of `bytes` to its right neighbour
 * (site isend), works `ms` ms (a sleep to a deadline, common/burn.h: like a computation that makes
 * no MPI call, it gives Open MPI's progress engine no turn, and it ends on time on a busy machine,
 * where a busy loop overshoots by a time slice) and completes both in MPI_Waitall (site waitall). With 2
 * ranks the left and right neighbour are the same rank.
 *
 * Expected, per rank: site isend count R, bytes R x `bytes`, partner the right neighbour; site irecv
 * count R, partner the left neighbour; site waitall count R. The ranks are balanced, so little real
 * sync. Overlap (the communication that ran while the rank computed) is more than 0 and at most
 * R x ms per rank (with the defaults 200 ms per rank); how much of the 4 MiB transfer Open MPI
 * really moves before MPI_Waitall depends on its progress engine.
 *
 * Prints on rank 0: "nonblocking_overlap: R exchanges of B bytes, checked". Every rank checks what
 * it received and calls MPI_Abort on a wrong byte. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"
#include "mpi_program.h"

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int repetitions = argc > 1 ? atoi(argv[1]) : 4;
  const int ms = argc > 2 ? atoi(argv[2]) : 50;
  const long bytes = argc > 3 ? atol(argv[3]) : 4L << 20;
  if (size < 2 || repetitions < 1 || ms < 0 || bytes < 1 || bytes > (1L << 30)) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N nonblocking_overlap [R >= 1] [ms >= 0] [bytes]\n");
    MPI_Finalize();
    return 2;
  }
  const int count = (int)bytes;
  unsigned char* out = malloc((size_t)bytes);
  unsigned char* in = malloc((size_t)bytes);
  if (out == NULL || in == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;

  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  for (int r = 0; r < repetitions; ++r) {
    for (long i = 0; i < bytes; ++i) out[i] = (unsigned char)(rank + r + i);
    MPI_Request requests[2];
    MPI_Irecv(in, count, MPI_BYTE, left, r, MPI_COMM_WORLD, &requests[0]);   /* SITE:irecv */
    MPI_Isend(out, count, MPI_BYTE, right, r, MPI_COMM_WORLD, &requests[1]); /* SITE:isend */
    sleep_for_ms(ms);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE); /* SITE:waitall */
    for (long i = 0; i < bytes; ++i) {
      if (in[i] != (unsigned char)(left + r + i)) {
        fprintf(stderr, "nonblocking_overlap: rank %d, exchange %d: wrong byte %ld\n", rank, r, i);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
  }
  if (rank == 0) printf("nonblocking_overlap: %d exchanges of %ld bytes, checked\n", repetitions, bytes);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
