/* The POP factors and what-if replay per phase (docs/efficiency-model.md, "Phases"), on N ranks under
 * `parperf run --trace`. The phases are made with MPI_Pcontrol, as users of other tools make them:
 * recording off right after MPI_Init (start-up is no phase), on around each phase.
 *
 * Usage: pop_phases [unit_ms=40] [rounds=2]
 *
 *   phase 1  each round, rank r works (1 + 2r) units in interval "work", then MPI_Barrier: load
 *            balance N / (2N - 1) (0.667 on 2 ranks), serialisation and transfer efficiency 1.
 *   pause    recording off: every rank sleeps 2 units outside any phase, then MPI_Barrier.
 *   phase 2  each round, rank r > 0 receives from rank r - 1, works one unit in "stage", sends to
 *            rank r + 1; then MPI_Barrier: serialisation efficiency 1/N, load balance 1.
 *
 * Over the recorded time (the phases together), rank r works rounds * (2 + 2r) units in a time of
 * rounds * (3N - 1) units. Work sleeps (mpi_work.h). Each rank prints on stderr the work it really
 * did in each phase, in seconds: "pop_phases: rank R phase P did W s". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_program.h"
#include "mpi_work.h"
#include "parperf/parperf.h"

#pragma weak parperf_interval_begin
#pragma weak parperf_interval_end

static parperf_site work_site = PARPERF_SITE_INIT("work", PARPERF_KIND_USER);
static parperf_site stage_site = PARPERF_SITE_INIT("stage", PARPERF_KIND_USER);

static double work_in(parperf_site* site, int ms) {
  if (parperf_interval_begin) parperf_interval_begin(site, 0);
  const struct timespec start = mpi_work_now();
  work_ms(ms);
  const double worked = mpi_work_seconds(start);
  if (parperf_interval_end) parperf_interval_end(site);
  return worked;
}

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  MPI_Pcontrol(0);
  const int rank = world.rank, size = world.size;
  const int unit = argc > 1 ? atoi(argv[1]) : 40;
  const int rounds = argc > 2 ? atoi(argv[2]) : 2;
  if (unit < 0 || rounds < 1) {
    if (rank == 0) fprintf(stderr, "usage: pop_phases [unit_ms] [rounds]\n");
    MPI_Finalize();
    return 2;
  }
  double worked[2] = {0, 0};
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Pcontrol(1);
  for (int round = 0; round < rounds; ++round) {
    worked[0] += work_in(&work_site, (1 + 2 * rank) * unit);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Pcontrol(0);

  work_ms(2 * unit);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Pcontrol(1);
  for (int round = 0; round < rounds; ++round) {
    int token = round;
    if (rank > 0) MPI_Recv(&token, 1, MPI_INT, rank - 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    worked[1] += work_in(&stage_site, unit);
    if (rank < size - 1) MPI_Send(&token, 1, MPI_INT, rank + 1, round, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Pcontrol(0);

  for (int phase = 0; phase < 2; ++phase)
    fprintf(stderr, "pop_phases: rank %d phase %d did %.6f s\n", rank, phase + 1, worked[phase]);
  MPI_Finalize();
  return 0;
}
