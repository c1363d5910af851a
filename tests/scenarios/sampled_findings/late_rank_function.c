/* An MPI job whose rank 1 is late at MPI_Allreduce because of one function, for the sampled cause of
 * the late-rank finding (`parperf run --sample` under mpirun).
 *
 *   mpirun -np 2 late_rank_function
 *
 * 4 times: each rank runs g for 50 ms of its own CPU time (the common work); rank 1 then runs f for
 * 200 ms of CPU time while rank 0 waits in MPI_Allreduce (site allreduce). Of rank 1's samples, f
 * has 200 / 250 = 80 % (its MPI calls and start-up take a few points); rank 0 never runs f. CPU time,
 * so the shares hold however busy the machine is. Prints "done 1" on rank 0. */
#include <mpi.h>
#include <stdio.h>

#include "cpu_work.h"

enum { kRepetitions = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double total = 0;
  for (int r = 0; r < kRepetitions; ++r) {
    double mine = g(0.050);
    if (rank == 1) mine += f(0.200);
    double sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* SITE:allreduce */
    total += sum;
  }
  if (rank == 0) printf("done %d\n", total > 0);
  MPI_Finalize();
  return 0;
}
