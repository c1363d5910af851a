/* A relay: each rank waits for its left neighbour, works, and passes the token on.
 *
 * Usage: relay_chain [unit_ms=100]   on N ranks (the tests run 2 and 4)
 *
 * All ranks meet in MPI_Barrier (site start_barrier). Rank r > 0 receives one int from rank r - 1
 * (site relay_recv), every rank works one unit (sleeping, mpi_work.h: N ranks share 2 cores), and
 * rank r < N - 1 sends the int to rank r + 1 (site relay_send). Nothing else is measured around it
 * but MPI_Init and MPI_Finalize, where the ranks that finished early wait for the last.
 *
 * Expected, for the `program` interval (the whole run; MPI_Init and MPI_Finalize are start-up and
 * shut-down, outside it): rank r waits r x unit in MPI_Recv (lost: communication, waiting for the
 * partner) and works one unit; its execution time is (r + 1) x unit, the run's N x unit. Productive
 * time N x unit of a total of N^2 x unit: efficiency 1/N, 0.5 on 2 ranks, 0.25 on 4. Communication
 * N(N - 1)/2 x unit, idle time the same.
 *
 * On a busy machine the ranks wake up late and the delays add up along the relay: each rank says on
 * stderr how long its part (from the start barrier to its send) and its work really lasted,
 * "relay_chain: rank R span S s, work W s", and the efficiency by the usual definition is then
 * sum of W / (N x max S).
 *
 * Prints on the last rank: "relay_chain: N ranks, token N-1". */
#include <mpi.h>
#include <stdio.h>

#include "mpi_program.h"
#include "mpi_work.h"

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int unit = mpi_work_unit(argc, argv, rank, "usage: mpirun -np N relay_chain [unit_ms >= 0]");
  if (unit < 0) {
    MPI_Finalize();
    return 2;
  }

  const struct timespec start = mpi_work_now();
  MPI_Barrier(MPI_COMM_WORLD); /* SITE:start_barrier */
  int token = 0;
  if (rank > 0) {
    MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* SITE:relay_recv */
    ++token;
  }
  const struct timespec work_start = mpi_work_now();
  work_ms(unit);
  const double work = mpi_work_seconds(work_start);
  if (rank < size - 1) MPI_Send(&token, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD); /* SITE:relay_send */
  const double span = mpi_work_seconds(start);
  fprintf(stderr, "relay_chain: rank %d span %.6f s, work %.6f s\n", rank, span, work);
  if (rank == size - 1) printf("relay_chain: %d ranks, token %d\n", size, token);
  MPI_Finalize();
  return 0;
}
