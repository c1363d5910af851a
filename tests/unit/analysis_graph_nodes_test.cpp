// The activity graph's node vectors are reserved once, before the first node is made, for every node
// the traces make: each point of a location, and a hub for each instance of an MPI collective, an
// OpenMP barrier and an OpenSHMEM barrier or collective over an active set (count_nodes,
// node_counting.hpp), whether counted in a pass of its own or beside the matching, which sees the
// threads' events interleaved (one analysis thread). A count that misses a kind of node doubles the vectors
// while the graph is linked, where building it holds the most; one that counts too many holds memory the
// graph never uses. Built from hand-made traces with every kind of point, without start-up or shut-down calls
// (whose window would cut points off), so that the reservation is exactly the nodes.
#include <gtest/gtest.h>

#include <cstdint>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/messages.hpp"
#include "format/shmem_active_set.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using format::TraceEventKind;
using test::TraceRunBuilder;

format::TraceEvent at(TraceEventKind kind, double when_ms, std::uint32_t site = 0) {
  return {.kind = kind, .ticks = test::ms(when_ms), .site = site};
}

// The graph with its nodes counted beside the matching (analyse_traces on one thread).
ActivityGraph counted_beside_matching(const TraceRun& run) {
  ActivityGraphDraft draft(run, ActivityGraphDraft::unread);
  const Communication communication = match_communication(run, &draft.counter());
  draft.read();
  return std::move(draft).finish(communication);
}

void expect_reserved_for_exactly(const ActivityGraph& g, std::size_t nodes) {
  ASSERT_EQ(g.nodes(), nodes) << "the nodes the construction makes";
  EXPECT_EQ(g.time.capacity(), nodes) << "the time vector was not reserved for exactly the graph's nodes";
  EXPECT_EQ(g.segment.capacity(), nodes);
  EXPECT_EQ(g.stack.capacity(), nodes);
  EXPECT_EQ(g.operation.capacity(), nodes);
}

// Two ranks of two threads. Thread 0: an interval (2 points), a message each way (4), an MPI_Barrier
// (2), recording switched off and on (2), then a parallel region (2) in which it takes a lock (3:
// begin, acquired, released), passes a barrier (3: begin, arrived, end), waits in a taskwait (2),
// creates a task (1) and runs an atomic (none: part of the work around it): 21. Thread 1: the region
// (2) and its barrier (3): 5. Hubs: the MPI_Barrier's instance and each rank's OpenMP barrier: 3.
TEST(ActivityGraphNodes, TheVectorsAreReservedOnceForThePointsOfEveryKindAndTheHubsOfMpiAndOpenMp) {
  TraceRunBuilder b;
  for (std::int64_t r = 0; r < 2; ++r) {
    b.rank(r, 2);
    const auto compute = b.site(SiteKind::user, "compute", "n.c", 3);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "n.c", 5);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "n.c", 6);
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier", "n.c", 7);
    const auto region = b.site(SiteKind::omp_parallel, "parallel", "n.c", 10);
    const auto lock = b.site(SiteKind::omp_lock, "omp_set_lock", "n.c", 11);
    const auto omp_barrier = b.site(SiteKind::omp_barrier, "omp barrier", "n.c", 12);
    const auto taskwait = b.site(SiteKind::omp_taskwait, "omp taskwait", "n.c", 13);
    const auto create = b.site(SiteKind::omp_task_create, "task", "n.c", 14);
    const auto atomic = b.site(SiteKind::omp_atomic, "omp atomic", "n.c", 15);
    b.event(at(TraceEventKind::enter, 1, compute)).event(at(TraceEventKind::leave, 5, compute));
    const std::int64_t other = 1 - r;
    if (r == 0)
      b.op(send, 6, 7, other, 0, 64).op(recv, 8, 9, other, 1, 64);
    else
      b.op(recv, 6, 7, other, 0, 64).op(send, 8, 9, other, 1, 64);
    b.op(barrier, 10, 11, -1, 0);
    b.event(at(TraceEventKind::recording_off, 12)).event(at(TraceEventKind::recording_on, 13));
    constexpr std::int64_t kRegion = 77, kLock = 5, kTask = 9;
    for (std::uint32_t thread = 0; thread < 2; ++thread)
      b.event(at(TraceEventKind::enter, 14, region), thread);
    b.op(lock, 15, 16, -1, kLock, 0, 0, false);
    for (std::uint32_t thread = 0; thread < 2; ++thread)
      b.op(omp_barrier, 17, 18, -1, kRegion, 0, thread, false);
    b.op(taskwait, 19, 20, -1, 0, 0, 0, false).op(create, 21, 21, -1, kTask, 0, 0, false);
    b.op(atomic, 22, 22, -1, 0, 0, 0, false);
    for (std::uint32_t thread = 0; thread < 2; ++thread)
      b.event(at(TraceEventKind::leave, 23, region), thread);
  }
  const TraceRun run = b.build();
  const ActivityGraph g = build_activity_graph(run, match_communication(run));
  EXPECT_EQ(g.linked.messages, 2u);
  EXPECT_EQ(g.linked.collectives, 1u);
  EXPECT_EQ(g.linked.openmp_barriers, 2u) << "each rank's team";
  EXPECT_EQ(g.nodes() - g.first_hub(), 3u) << "the hubs";
  expect_reserved_for_exactly(g, 2 * (21 + 5) + 3);
  SCOPED_TRACE("counted beside the matching");
  expect_reserved_for_exactly(counted_beside_matching(run), 2 * (21 + 5) + 3);
}

// Two ranks: a fence that opens the first epoch (MPI_MODE_NOPRECEDE: traced without its window's
// group, no instance), then two that end epochs (instances of the window's group): 2 points each, 6 a
// rank. Hubs: the two linked fences' instances.
TEST(ActivityGraphNodes, TheVectorsAreReservedOnceForTheHubsOfAWindowsFences) {
  TraceRunBuilder b;
  for (std::int64_t r = 0; r < 2; ++r) {
    b.rank(r, 2);
    const auto fence = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_fence", "f.c", 4);
    const double late = 3.0 * static_cast<double>(r);  // rank 1 arrives later at each fence
    b.op(fence, 1, 2, -1, 0, 0, 0, false).op(fence, 3 + late, 7, -1, 0).op(fence, 8 + late, 12, -1, 1);
  }
  const TraceRun run = b.build();
  const ActivityGraph g = build_activity_graph(run, match_communication(run));
  EXPECT_EQ(g.linked.collectives, 2u) << "the fences that end an epoch, as barriers";
  EXPECT_EQ(g.nodes() - g.first_hub(), 2u) << "the hubs";
  expect_reserved_for_exactly(g, 2 * 6 + 2);
  SCOPED_TRACE("counted beside the matching");
  expect_reserved_for_exactly(counted_beside_matching(run), 2 * 6 + 2);
}

// Two PEs: shmem_barrier_all twice (2 points each), a barrier and a reduction over the active set of
// both (2 each): 8 points a PE. Hubs: each barrier_all's instance, the set barrier's and the
// reduction's: 4.
TEST(ActivityGraphNodes, TheVectorsAreReservedOnceForTheHubsOfOpenShmemBarriersAndActiveSets) {
  const std::int64_t both = format::shmem_active_set_match(0, 0, 2);
  TraceRunBuilder b;
  for (std::int64_t pe = 0; pe < 2; ++pe) {
    b.rank(pe, 2);
    const auto barrier_all = b.site(SiteKind::shmem_barrier, "shmem_barrier_all");
    const auto barrier = b.site(SiteKind::shmem_barrier, "shmem_barrier");
    const auto reduce = b.site(SiteKind::shmem_reduction, "shmem_int_sum_to_all");
    const double late = static_cast<double>(pe);  // PE 1 arrives later: the others wait
    b.op(barrier_all, 1 + late, 3, -1, 0, 0, 0, false)
        .op(barrier, 4 + late, 6, -1, both, 0, 0, false)
        .op(reduce, 7 + late, 9, -1, both, 4, 0, false)
        .op(barrier_all, 10 + late, 12, -1, 0, 0, 0, false);
  }
  const TraceRun run = b.build();
  const ActivityGraph g = build_activity_graph(run, match_communication(run));
  EXPECT_EQ(g.linked.shmem_barriers, 2u);
  EXPECT_EQ(g.linked.shmem_collectives, 2u);
  EXPECT_EQ(g.nodes() - g.first_hub(), 4u) << "the hubs";
  expect_reserved_for_exactly(g, 2 * 8 + 4);
  SCOPED_TRACE("counted beside the matching");
  expect_reserved_for_exactly(counted_beside_matching(run), 2 * 8 + 4);
}

}  // namespace
}  // namespace parperf::analysis
