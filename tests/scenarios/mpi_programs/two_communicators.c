/* Collectives on several communicators, in different orders on different ranks.
 *
 * Usage: two_communicators [R=2]   on exactly 4 ranks
 *
 * Communicators: MPI_COMM_WORLD; `dup`, its MPI_Comm_dup (site dup); `half`, MPI_Comm_split by rank
 * parity (site split): {0, 2} and {1, 3}. MPI orders collectives per communicator, not across them:
 * the even ranks call the world's MPI_Allreduce and then their half's MPI_Allgather, the odd ranks
 * their half's MPI_Allgather first. That cannot deadlock: the odd half needs only the odd ranks.
 * Matching instances by (communicator, sequence) pairs them right; matching by position on each
 * rank would pair the odd ranks' Allgather with the even ranks' Allreduce.
 *
 * Timeline: all ranks meet in MPI_Barrier on dup (site start_barrier). Then R repetitions, each
 * starting when the rank leaves the previous barrier on dup; every rank sleeps (mpi_work.h) until
 * its arrival time, in ms after the repetition's start:
 *                                                  rank 0  rank 1  rank 2  rank 3  synchronization
 *   MPI_Allgather on half (site half_allgather)      130      30     180      90  even 50, odd 60
 *   MPI_Allreduce on world (site world_allreduce)    120     110      50     100  100
 *   MPI_Barrier on dup (site dup_barrier)            200     160     230     190  140
 * (order on even ranks: Allreduce, Allgather, Barrier; on odd ranks: Allgather, Allreduce, Barrier;
 * every arrival is at least 10 ms after the rank left its previous collective). After the
 * repetitions one MPI_Bcast on world from rank 0 (site world_bcast) with no sleep before it.
 *
 * Expected, per repetition (ms): synchronization world 100, dup 140, even half 50, odd half 60,
 * 350 in all (R = 2: 700 ms, plus the start barrier and the broadcast, which add only how unevenly
 * the ranks arrive at them). Per rank at site world_allreduce: 0, 10, 70, 20 per repetition. The
 * communicators in the profile: world (size 4, ordinal 0: R + 1 collectives), dup (size 4, ordinal
 * 1: R + 1), two halves (size 2, ordinal 0: R each). MPI_Comm_split and MPI_Comm_dup: once per rank.
 *
 * Prints on rank 0: "two_communicators: R repetitions, checksum C", C = R x (0+1+2+3) + R x (0+2) + 4,
 * the sums the collectives computed (rank 0's half gathers 0 and 2) and the broadcast value 4. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_program.h"
#include "mpi_work.h"

/* Arrival times (ms after the repetition's start) by rank. */
static const int kHalfArrival[4] = {130, 30, 180, 90};
static const int kWorldArrival[4] = {120, 110, 50, 100};
static const int kDupArrival[4] = {200, 160, 230, 190};

static long world_step(int rank, struct timespec start) {
  work_until(start, kWorldArrival[rank]);
  long value = rank;
  long sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); /* SITE:world_allreduce */
  return sum;
}

static long half_step(int rank, struct timespec start, MPI_Comm half) {
  work_until(start, kHalfArrival[rank]);
  long value = rank;
  long gathered[2] = {0, 0};
  MPI_Allgather(&value, 1, MPI_LONG, gathered, 1, MPI_LONG, half); /* SITE:half_allgather */
  return gathered[0] + gathered[1];
}

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank;
  const int size = world.size;
  const int repetitions = argc > 1 ? atoi(argv[1]) : 2;
  if (size != 4 || repetitions < 1) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np 4 two_communicators [R >= 1]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Comm dup;
  MPI_Comm half;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);                    /* SITE:dup */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half); /* SITE:split */

  long checksum = 0;
  MPI_Barrier(dup); /* SITE:start_barrier */
  for (int r = 0; r < repetitions; ++r) {
    const struct timespec start = mpi_work_now();
    if (rank % 2 == 0) {
      checksum += world_step(rank, start);
      checksum += half_step(rank, start, half);
    } else {
      checksum += half_step(rank, start, half);
      checksum += world_step(rank, start);
    }
    work_until(start, kDupArrival[rank]);
    MPI_Barrier(dup); /* SITE:dup_barrier */
  }
  long value = rank == 0 ? 4 : 0;
  MPI_Bcast(&value, 1, MPI_LONG, 0, MPI_COMM_WORLD); /* SITE:world_bcast */
  checksum += value;

  if (rank == 0) printf("two_communicators: %d repetitions, checksum %ld\n", repetitions, checksum);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
