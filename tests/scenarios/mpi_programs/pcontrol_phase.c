/* A phase delimited by MPI_Pcontrol, the way programs written for other MPI tools measure a part
 * of a run: recording off from the start, on for the phase, off again after it.
 *
 * Usage: pcontrol_phase [unit_ms=100] [started_paused]   on N ranks (the tests run 2 and 4)
 *
 * Recording is switched off right after MPI_Init with MPI_Pcontrol(0) (the MPI standard has it on
 * after MPI_Init), or, with `started_paused`, the run is started with PARPERF_START_PAUSED=1 and the
 * program leaves that call out. All ranks meet in MPI_Barrier; then the phase: MPI_Pcontrol(1),
 * rank r works (1 + 2r) x unit (sleeping, mpi_work.h: N ranks share 2 cores), MPI_Pcontrol(0).
 * After it, not measured: a barrier and 300 ms of work on every rank, then MPI_Finalize.
 *
 * Expected, for the `program` interval (which then holds the phase alone): rank r's execution time
 * (1 + 2r) x unit, all of it productive (sleeping is the work); execution time (2N - 1) x unit;
 * productive time N^2 x unit; efficiency N / (2N - 1): 0.667 on 2 ranks, 0.571 on 4; idle time
 * the sum over r of (2N - 2 - 2r) x unit = N(N - 1) x unit. Nothing of the unmeasured 300 ms, of
 * MPI_Init or of MPI_Finalize is in it. MPI_Init's time is shown as start-up (MPI_Finalize's is
 * not recorded: recording is off then).
 *
 * On a busy machine a rank wakes up late and its phase lasts longer than constructed: each rank
 * says on stderr how long its phase and its work really lasted,
 * "pcontrol_phase: rank R phase P s, work W s", and the efficiency by the usual definition is then
 * sum of W / (N x max P).
 *
 * Prints on rank 0: "pcontrol_phase: N ranks, unit U ms". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "mpi_work.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int started_paused = argc > 2 && strcmp(argv[2], "started_paused") == 0;
  if (!started_paused) MPI_Pcontrol(0);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int unit =
      mpi_work_unit(argc, argv, rank, "usage: mpirun -np N pcontrol_phase [unit_ms >= 0] [started_paused]");
  if (unit < 0) {
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const struct timespec phase_start = mpi_work_now();
  MPI_Pcontrol(1);
  const struct timespec work_start = mpi_work_now();
  work_ms((1 + 2 * rank) * unit);
  const double work = mpi_work_seconds(work_start);
  MPI_Pcontrol(0);
  const double phase = mpi_work_seconds(phase_start);
  fprintf(stderr, "pcontrol_phase: rank %d phase %.6f s, work %.6f s\n", rank, phase, work);

  MPI_Barrier(MPI_COMM_WORLD);
  work_ms(300);
  if (rank == 0) printf("pcontrol_phase: %d ranks, unit %d ms\n", size, unit);
  MPI_Finalize();
  return 0;
}
