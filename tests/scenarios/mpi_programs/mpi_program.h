/* The start of every MPI scenario program: MPI_Init, then this process's rank in MPI_COMM_WORLD and
 * the job's size. (A program that must do something between MPI_Init and the rank query, such as
 * pcontrol_phase.c's MPI_Pcontrol, starts on its own.) */
#ifndef PARPERF_MPI_PROGRAM_H
#define PARPERF_MPI_PROGRAM_H

#include <mpi.h>

typedef struct {
  int rank;
  int size;
} mpi_world;

static inline mpi_world mpi_program_start(int* argc, char*** argv) {
  mpi_world world = {0, 0};
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  return world;
}

#endif
