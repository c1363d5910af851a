/* The MPI collector's cost per call, for bench/mpi/overhead.sh: ping-pong of small messages.
 *
 * Usage: mpirun -np N parperf-bench-mpi-pingpong [round_trips=50000] [bytes=8]
 *
 * The ranks pair up, (0, 1), (2, 3), ...: the even rank of a pair sends `bytes` and waits for them
 * to come back, the odd rank returns them, `round_trips` times (with an odd N the last rank only
 * joins the barriers). Each rank of a pair makes 2 MPI calls a round trip, an MPI_Send and an
 * MPI_Recv, all at the same two call sites: the time parperf adds to the loop divided by the calls
 * of a rank is the cost of one measured call, and the profile must not grow with `round_trips`.
 *
 * Prints on rank 0 the ranks, the round trips, the message size, the MPI calls of the loop on a
 * rank of a pair, the loop's seconds on rank 0 (between two barriers) and the round trip's mean. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long round_trips = argc > 1 ? atol(argv[1]) : 50000;
  const int bytes = argc > 2 ? atoi(argv[2]) : 8;
  if (size < 2 || round_trips < 1 || bytes < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np N (N >= 2) %s [round_trips >= 1] [bytes >= 1]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  char* message = malloc((size_t)bytes);
  if (message == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(message, rank, (size_t)bytes);
  const int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
  const int paired = partner < size;

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (paired) {
    for (long i = 0; i < round_trips; ++i) {
      if (rank % 2 == 0) {
        MPI_Send(message, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
        MPI_Recv(message, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(message, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(message, bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;

  if (rank == 0) {
    printf(
        "ranks: %d\nround trips: %ld\nbytes: %d\ncalls per rank: %ld\nseconds: %.9f\nround trip: %.3f us\n",
        size, round_trips, bytes, 2 * round_trips, seconds, seconds / (double)round_trips * 1e6);
  }
  free(message);
  MPI_Finalize();
  return 0;
}
