/* An MPI program whose scaling is known by construction: Amdahl's law with serial fraction
 * f = S / (S + W).
 *
 * Rank 0 alone does S ms of work (the serial part) while the other ranks wait at a barrier; then
 * every rank of p does its share W/p ms of the parallel work, and all meet at a barrier. So
 * T(p) = S + W/p (plus the time a rank waits for a core when it wakes up). The work is sleeping, as
 * in the other MPI scenarios (mpi_programs/mpi_work.h): oversubscription does not distort a sleep,
 * so counts beyond the machine's cores are measured honestly.
 *
 * With a third argument C, each rank then also spends C·p ms in an exchange that grows with the ranks
 * (as an all-to-all does): T(p) = S + W/p + C·p, a program whose scaling turns around at
 * p = sqrt(W/C) and that Amdahl's law cannot describe.
 *
 * Usage: mpi_serial_fraction [S_ms [W_ms [C_ms]]]   (default 150, 1200, 0: f = 150/1350 = 0.111) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_programs/mpi_work.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int serial = argc > 1 ? atoi(argv[1]) : 150;
  const int parallel = argc > 2 ? atoi(argv[2]) : 1200;
  const int growing = argc > 3 ? atoi(argv[3]) : 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) work_ms(serial);
  MPI_Barrier(MPI_COMM_WORLD);
  work_ms(parallel / size);
  MPI_Barrier(MPI_COMM_WORLD);
  if (growing > 0) {
    work_ms(growing * size);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) printf("%d ranks: serial %d ms, parallel work %d ms\n", size, serial, parallel);
  MPI_Finalize();
  return 0;
}
