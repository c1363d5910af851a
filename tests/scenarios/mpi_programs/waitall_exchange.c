/* A ring exchange completed by one MPI_Waitall of several receives (a halo exchange's pattern).
 *
 * Usage: waitall_exchange [R=5]   on N >= 2 ranks (the tests run 2 and 3)
 *
 * R times each rank posts MPI_Irecv from its left and from its right neighbour (tags 1 and 2,
 * site exchange_irecv), MPI_Isend to both (site exchange_isend), and completes all four requests in
 * one MPI_Waitall (site exchange_waitall).
 *
 * Expected: 2 x N x R messages, every one received in a Waitall that completed two receives; in the
 * event trace each is paired with its send (none left over).
 *
 * Prints on rank 0: "waitall_exchange: N ranks, R rounds, checked". Every rank checks what it
 * received and calls MPI_Abort on a wrong value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_program.h"

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int rounds = argc > 1 ? atoi(argv[1]) : 5;
  if (size < 2 || rounds < 1) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np N waitall_exchange [R >= 1] (N >= 2)\n");
    MPI_Finalize();
    return 2;
  }
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;
  for (int r = 0; r < rounds; ++r) {
    int from_left = -1, from_right = -1;
    const int mine = 1000 * r + rank;
    MPI_Request requests[4];
    MPI_Irecv(&from_left, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &requests[0]); /* SITE:exchange_irecv */
    MPI_Irecv(&from_right, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(&mine, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &requests[2]); /* SITE:exchange_isend */
    MPI_Isend(&mine, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE); /* SITE:exchange_waitall */
    if (from_left != 1000 * r + left || from_right != 1000 * r + right) {
      fprintf(stderr, "waitall_exchange: rank %d got %d and %d in round %d\n", rank, from_left, from_right,
              r);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  if (rank == 0) printf("waitall_exchange: %d ranks, %d rounds, checked\n", size, rounds);
  MPI_Finalize();
  return 0;
}
