/* The constructed cases of the POP efficiency factors, the critical path and the what-if replay
 * (docs/efficiency-model.md), on N ranks under `parperf run --trace`.
 *
 * Usage: pop_cases CASE [unit_ms=50] [rounds=2] [bytes=8]
 *
 *   imbalance  each round, rank r works (1 + 2r) units in interval "work", then MPI_Barrier.
 *              Load balance mean/max = (N) / (2N - 1): 0.667 on 2 ranks, 0.571 on 4; nothing else lost.
 *   even       each round every rank works N units in "work" (the mean of `imbalance`), then MPI_Barrier:
 *              what `parperf whatif --balance work` of an imbalance run must predict.
 *   chain      each round, rank r > 0 receives from rank r - 1, works one unit in "stage", sends to
 *              rank r + 1; then MPI_Barrier. The stages run one after the other: serialisation
 *              efficiency 1/N, load balance and transfer efficiency 1.
 *   pipeline   `chain`, and rank 0 also works 1.5 units in interval "side" after its send: hidden
 *              behind the other ranks' stages from 3 ranks on ("side" has no time on the critical path).
 *   exchange   each round every rank works one unit in "work", then sends `bytes` bytes to each neighbour
 *              of a ring and receives as many from each (MPI_Send and MPI_Recv, even ranks sending
 *              first; N even or 2): with large messages transfer efficiency < 1, and `parperf whatif
 *              --ideal-network` predicts the run with 8-byte messages.
 *   fence      `imbalance` synchronized by one-sided communication instead of barriers: a window over
 *              MPI_COMM_WORLD (one fence with MPI_MODE_NOPRECEDE opens its first epoch); each round,
 *              rank r works (1 + 2r) units in "work", puts 8 bytes into its right neighbour's window
 *              and calls MPI_Win_fence, which completes only once every rank entered it: load
 *              balance as `imbalance`, every rank but the last waits at each fence for it, and
 *              `parperf whatif --balance work` predicts the run of `even`.
 *   lock       each round every rank takes an exclusive lock on rank 0's window (a counter), reads the
 *              counter, works one unit in "work" holding the lock, writes the counter plus one and
 *              unlocks; then MPI_Barrier. The ranks work one after the other: serialisation efficiency
 *              1/N as `chain`'s, load balance and transfer efficiency 1 (the waiting is for the lock,
 *              not for data: an ideal network gains nothing).
 *   pscw       `imbalance` synchronized by post-start-complete-wait with both neighbours of a ring
 *              instead of barriers: each round, rank r works (1 + 2r) units in "work", exposes its
 *              window to its neighbours (MPI_Win_post of a group of two, one on 2 ranks), opens an
 *              access epoch to them (MPI_Win_start), puts its rank into its right neighbour's window,
 *              and ends both (MPI_Win_complete, MPI_Win_wait). Each start waits for both neighbours'
 *              posts: on 3 ranks every rank waits for the last one's extra work, and `parperf whatif
 *              --balance work` predicts the run of `even`.
 *
 * Work sleeps (mpi_work.h). Each rank prints on stderr the work it really did, in seconds:
 * "pop_cases: rank R work W s", for the tests to derive the expected factors on a busy machine. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_program.h"
#include "mpi_work.h"
#include "parperf/parperf.h"

#pragma weak parperf_interval_begin
#pragma weak parperf_interval_end

static parperf_site work_site = PARPERF_SITE_INIT("work", PARPERF_KIND_USER);
static parperf_site stage_site = PARPERF_SITE_INIT("stage", PARPERF_KIND_USER);
static parperf_site side_site = PARPERF_SITE_INIT("side", PARPERF_KIND_USER);

static double worked;

static void work_in(parperf_site* site, int ms) {
  if (parperf_interval_begin) parperf_interval_begin(site, 0);
  const struct timespec start = mpi_work_now();
  work_ms(ms);
  worked += mpi_work_seconds(start);
  if (parperf_interval_end) parperf_interval_end(site);
}

int main(int argc, char** argv) {
  const mpi_world world = mpi_program_start(&argc, &argv);
  const int rank = world.rank, size = world.size;
  const char* name = argc > 1 ? argv[1] : "";
  const int unit = argc > 2 ? atoi(argv[2]) : 50;
  const int rounds = argc > 3 ? atoi(argv[3]) : 2;
  const long bytes = argc > 4 ? atol(argv[4]) : 8;
  const int known = !strcmp(name, "imbalance") || !strcmp(name, "even") || !strcmp(name, "chain") ||
                    !strcmp(name, "pipeline") || !strcmp(name, "exchange") || !strcmp(name, "fence") ||
                    !strcmp(name, "lock") || !strcmp(name, "pscw");
  if (!known || unit < 0 || rounds < 1 || bytes < 1) {
    if (rank == 0)
      fprintf(stderr,
              "usage: pop_cases imbalance|even|chain|pipeline|exchange|fence|lock|pscw [unit_ms] [rounds] "
              "[bytes]\n");
    MPI_Finalize();
    return 2;
  }
  char* out = calloc((size_t)bytes, 1);
  char* in = calloc((size_t)bytes, 1);
  const int fenced = !strcmp(name, "fence"), locked = !strcmp(name, "lock"), posted = !strcmp(name, "pscw");
  long long* window_memory = NULL;
  MPI_Win window = MPI_WIN_NULL;
  MPI_Group neighbours = MPI_GROUP_NULL;
  if (posted) {
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    const int both[2] = {(rank + size - 1) % size, (rank + 1) % size};
    MPI_Group_incl(world_group, both[0] == both[1] ? 1 : 2, both, &neighbours);
    MPI_Group_free(&world_group);
  }
  if (fenced || locked || posted) {
    MPI_Win_allocate((MPI_Aint)sizeof(long long), (int)sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &window_memory, &window);
    *window_memory = 0;
  }
  if (fenced) MPI_Win_fence(MPI_MODE_NOPRECEDE, window);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int round = 0; round < rounds; ++round) {
    if (!strcmp(name, "imbalance")) {
      work_in(&work_site, (1 + 2 * rank) * unit);
    } else if (fenced) {
      work_in(&work_site, (1 + 2 * rank) * unit);
      const long long value = rank;
      MPI_Put(&value, 1, MPI_LONG_LONG, (rank + 1) % size, 0, 1, MPI_LONG_LONG, window);
      MPI_Win_fence(round == rounds - 1 ? MPI_MODE_NOSUCCEED : 0, window);
    } else if (posted) {
      work_in(&work_site, (1 + 2 * rank) * unit);
      const long long value = rank;
      MPI_Win_post(neighbours, 0, window);
      MPI_Win_start(neighbours, 0, window);
      MPI_Put(&value, 1, MPI_LONG_LONG, (rank + 1) % size, 0, 1, MPI_LONG_LONG, window);
      MPI_Win_complete(window);
      MPI_Win_wait(window);
    } else if (locked) {
      long long count = 0;
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window);
      MPI_Get(&count, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, window);
      MPI_Win_flush(0, window);
      work_in(&work_site, unit);
      ++count;
      MPI_Put(&count, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, window);
      MPI_Win_unlock(0, window);
    } else if (!strcmp(name, "even")) {
      work_in(&work_site, size * unit);
    } else if (!strcmp(name, "chain") || !strcmp(name, "pipeline")) {
      int token = round;
      if (rank > 0) MPI_Recv(&token, 1, MPI_INT, rank - 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      work_in(&stage_site, unit);
      if (rank < size - 1) MPI_Send(&token, 1, MPI_INT, rank + 1, round, MPI_COMM_WORLD);
      if (rank == 0 && !strcmp(name, "pipeline")) work_in(&side_site, unit * 3 / 2);
    } else {
      work_in(&work_site, unit);
      const int right = (rank + 1) % size, left = (rank + size - 1) % size;
      /* Even ranks send first, odd ones receive first: blocking sends of large messages wait for
       * their receives, and every rank both sends and receives in each direction. */
      for (int direction = 0; direction < 2; ++direction) {
        const int to = direction ? left : right, from = direction ? right : left;
        if (rank % 2 == 0) MPI_Send(out, (int)bytes, MPI_BYTE, to, direction, MPI_COMM_WORLD);
        MPI_Recv(in, (int)bytes, MPI_BYTE, from, direction, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank % 2 == 1) MPI_Send(out, (int)bytes, MPI_BYTE, to, direction, MPI_COMM_WORLD);
      }
    }
    if (strcmp(name, "exchange") && !fenced && !posted) MPI_Barrier(MPI_COMM_WORLD);
  }
  fprintf(stderr, "pop_cases: rank %d work %.6f s\n", rank, worked);
  if ((fenced || posted) && *window_memory != (rank + size - 1) % size)
    fprintf(stderr, "pop_cases: rank %d found %lld in its window, not its left neighbour's rank\n", rank,
            *window_memory);
  if (locked && rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, window);
    if (*window_memory != (long long)size * rounds)
      fprintf(stderr, "pop_cases: the counter is %lld after %d rounds of %d ranks\n", *window_memory, rounds,
              size);
    MPI_Win_unlock(0, window);
  }
  if (fenced || locked || posted) MPI_Win_free(&window);
  if (posted) MPI_Group_free(&neighbours);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
