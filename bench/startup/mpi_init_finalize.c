/* The smallest MPI program: MPI_Init, MPI_Finalize. bench/startup/fixed_cost.sh times it with and
 * without `parperf run` to see what parperf adds to an MPI job that does nothing. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Finalize();
  return 0;
}
