/* A hybrid MPI+OpenMP case of the POP factors (docs/efficiency-model.md): the MPI and OpenMP parts
 * apart. Usage: pop_hybrid [unit_ms=50] [rounds=2], on N ranks, 2 OpenMP threads each.
 *
 * Each round, every rank runs a parallel region of 2 threads in which thread t works one unit,
 * except on the last rank, whose thread 1 works 3 units; then MPI_Barrier. The last rank is the
 * slowest (3 units; the others 1): MPI load balance (N + 2)/(3N) (0.667 on 2 ranks); over all
 * threads the load balance is (2N + 2)/(6N) (0.5 on 2 ranks), so the OpenMP part is their ratio
 * (0.75 on 2 ranks). On 1 rank it is an OpenMP program whose threads work 1 and 3 units: load
 * balance 0.667, all of it OpenMP's.
 *
 * Work sleeps (mpi_work.h). Each thread prints the work it really did, in seconds:
 * "pop_hybrid: rank R thread T work W s". */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_program.h"
#include "mpi_work.h"

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank, size = world.size;
  const int unit = argc > 1 ? atoi(argv[1]) : 50;
  const int rounds = argc > 2 ? atoi(argv[2]) : 2;
  if (unit < 0 || rounds < 1) {
    if (rank == 0) fprintf(stderr, "usage: pop_hybrid [unit_ms] [rounds]\n");
    MPI_Finalize();
    return 2;
  }
  double worked[2] = {0, 0};
  MPI_Barrier(MPI_COMM_WORLD);
  for (int round = 0; round < rounds; ++round) {
#pragma omp parallel num_threads(2)
    {
      const int t = omp_get_thread_num();
      const struct timespec start = mpi_work_now();
      work_ms(rank == size - 1 && t == 1 ? 3 * unit : unit);
      worked[t] += mpi_work_seconds(start);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int t = 0; t < 2; ++t)
    fprintf(stderr, "pop_hybrid: rank %d thread %d work %.6f s\n", rank, t, worked[t]);
  MPI_Finalize();
  return 0;
}
