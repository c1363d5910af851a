/* The functions on a pipeline's critical path (docs/efficiency-model.md), on N >= 3 ranks under
 * `parperf run --trace --sample`.
 *
 * Usage: path_functions [unit_ms=50] [rounds=2]
 *
 * Each round, rank r > 0 receives from rank r - 1, runs stage_kernel for one unit of CPU time and
 * sends to rank r + 1 (rank 0 only runs and sends); then MPI_Barrier. The stages run one after the
 * other and are the critical path. After its send, rank 0 runs side_kernel for half a unit: while the
 * N - 1 >= 2 later stages run, so side_kernel is hidden (no time on the path, half a unit a round in
 * all). Half a unit against the later stages' two units or more: on 2 cores shared with other work,
 * where Open MPI's waiting ranks spin too, rank 0 may get a small share of a core while side_kernel
 * runs, and with 1.5 units it once ended after the last stage (then rightly on the path).
 *
 * The kernels spin on arithmetic for a given CPU time (not wall time: the samples count CPU time, and on
 * 2 busy cores a rank's wall time stretches by how long it waits for one), reading the thread's CPU clock
 * only every 16384 iterations (about 1 % of the time), so that nearly every sample interrupts the kernel
 * itself. They are kept out of line, under their own names, and the program is built with frame pointers,
 * which the sampler walks. Each rank prints on stderr the CPU seconds its kernels ran:
 * "path_functions: rank R stage S s side D s". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi_program.h"

#if defined(__GNUC__) && !defined(__clang__)
#define KERNEL __attribute__((noinline, noclone))
#else
#define KERNEL __attribute__((noinline))
#endif

static double cpu_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

volatile double kernel_result; /* keeps the arithmetic from being optimised away */

/* Each kernel's loop is its own (not a helper inlined into it: the samples would name the helper's
 * inlined frame as the interrupted function). */
#define DEFINE_KERNEL(name)                                        \
  KERNEL double name(int ms);                                      \
  double name(int ms) {                                            \
    const double start = cpu_seconds(), until = start + ms * 1e-3; \
    double x = 1;                                                  \
    do {                                                           \
      for (int i = 0; i < 16384; ++i) x = x * 1.0000001 + 1e-9;    \
    } while (cpu_seconds() < until);                               \
    kernel_result = x;                                             \
    return cpu_seconds() - start;                                  \
  }

DEFINE_KERNEL(stage_kernel)
DEFINE_KERNEL(side_kernel)

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank, size = world.size;
  const int unit = argc > 1 ? atoi(argv[1]) : 50;
  const int rounds = argc > 2 ? atoi(argv[2]) : 2;
  if (unit < 1 || rounds < 1 || size < 3) {
    if (rank == 0) fprintf(stderr, "usage: path_functions [unit_ms] [rounds], on 3 ranks or more\n");
    MPI_Finalize();
    return 2;
  }
  double stage = 0, side = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int round = 0; round < rounds; ++round) {
    int token = round;
    if (rank > 0) MPI_Recv(&token, 1, MPI_INT, rank - 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    stage += stage_kernel(unit);
    if (rank < size - 1) MPI_Send(&token, 1, MPI_INT, rank + 1, round, MPI_COMM_WORLD);
    if (rank == 0) side += side_kernel(unit / 2);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  fprintf(stderr, "path_functions: rank %d stage %.6f s side %.6f s\n", rank, stage, side);
  MPI_Finalize();
  return 0;
}
