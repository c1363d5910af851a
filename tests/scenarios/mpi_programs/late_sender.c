/* Late sender: the receiver waits for a message that is sent late.
 *
 * Usage: late_sender [R=1] [ms=200]   on 2 ranks (further ranks only join the start barrier)
 *
 * All ranks meet in MPI_Barrier (site start_barrier). Then R times: rank 0 computes `ms` ms (a
 * wall-clock busy loop, common/burn.h: 2 ranks on 2 cores) and sends 64 ints (256 bytes, sent
 * eagerly) to rank 1 (site late_send); rank 1 posts its receive at once (site late_recv) and waits
 * there for the whole `ms`.
 *
 * Expected (the defaults): rank 1's MPI_Recv at site late_recv: count R, real sync (waiting for the
 * partner) about R x 200 ms, bytes R x 256, partner 0; rank 0's MPI_Send at site late_send: count R,
 * next to no time, partner 1. The communication of the run is rank 1's waiting, real sync. The last
 * receive ends after the last send began, on rank 0's clock, however skewed rank 1's clock is
 * (PARPERF_TEST_CLOCK_SKEW): it began `ms` earlier and ends within a millisecond of the send.
 *
 * Prints on rank 1: "late_sender: R messages, checksum C" with C = R x (0 + 1 + ... + 63) = R x 2016. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"
#include "mpi_program.h"

enum { kCount = 64 };

static volatile double sink;

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int repetitions = argc > 1 ? atoi(argv[1]) : 1;
  const int ms = argc > 2 ? atoi(argv[2]) : 200;
  if (size < 2 || repetitions < 1 || ms < 0) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 late_sender [R >= 1] [ms >= 0]\n");
    MPI_Finalize();
    return 2;
  }

  int message[kCount];
  long checksum = 0;
  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  for (int r = 0; r < repetitions; ++r) {
    if (rank == 0) {
      sink += burn_for_ms(ms);
      for (int i = 0; i < kCount; ++i) message[i] = i;
      MPI_Send(message, kCount, MPI_INT, 1, 7, MPI_COMM_WORLD); /* SITE:late_send */
    } else if (rank == 1) {
      MPI_Recv(message, kCount, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* SITE:late_recv */
      for (int i = 0; i < kCount; ++i) checksum += message[i];
    }
  }
  if (rank == 1) printf("late_sender: %d messages, checksum %ld\n", repetitions, checksum);
  MPI_Finalize();
  return 0;
}
