// Wait states (analysis/trace/wait_states.hpp) on hand-built traces whose waits are known by
// construction: how much time each pattern lost, where, who waited and who was late.
#include <gtest/gtest.h>

#include "analysis/trace/messages.hpp"
#include "analysis/trace/wait_states.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kMs;
using test::TraceRunBuilder;

constexpr double kNs = 1.0;  // tolerance: the times are exact to the nanosecond

WaitStates wait_states_of(const TraceRunBuilder& b) {
  const TraceRun run = b.build();
  return find_wait_states(run, match_communication(run));
}

const PatternWaits* find(const WaitStates& states, WaitPattern pattern) {
  for (const PatternWaits& p : states.patterns)
    if (p.pattern == pattern) return &p;
  return nullptr;
}

TEST(WaitStates, LateSenderOf50MsIsChargedToTheReceiveSiteAndCausedByTheSender) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "late.c", 10);
  b.op(send, 150, 150.5, 1, 4, 64);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "late.c", 20);
  b.op(recv, 100, 150.6, 0, 4);
  const WaitStates states = wait_states_of(b);
  const PatternWaits* late = find(states, WaitPattern::late_sender);
  ASSERT_NE(late, nullptr) << "rank 1 waited 50 ms in MPI_Recv for rank 0's send";
  EXPECT_NEAR(late->lost_ns, 50 * kMs, kNs);
  EXPECT_EQ(late->instances, 1u);
  ASSERT_EQ(late->sites.size(), 1u);
  EXPECT_EQ(late->sites[0].location, "late.c:20");
  EXPECT_EQ(late->sites[0].name, "MPI_Recv");
  ASSERT_EQ(late->waiting.size(), 1u);
  EXPECT_EQ(late->waiting[0].rank, 1);
  ASSERT_EQ(late->causes.size(), 1u);
  EXPECT_EQ(late->causes[0].rank, 0) << "the sender was late";
  EXPECT_EQ(find(states, WaitPattern::late_receiver), nullptr) << "the send did not wait for anything";
}

TEST(WaitStates, ALateSenderWaitNeverExceedsTheReceiveAndATestDoesNotWait) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto isend = b.site(SiteKind::mpi_isend, "MPI_Isend");
  b.op(isend, 300, 300.1, 1, 0).op(isend, 400, 400.1, 1, 1);
  b.rank(1, 2);
  const auto wait = b.site(SiteKind::mpi_wait, "MPI_Wait");
  const auto test = b.site(SiteKind::mpi_test, "MPI_Test");
  // The Wait ran from 100 to 120 ms only (the clocks disagree, or the message came early): it lost
  // its whole 20 ms, not the 200 ms to the send.
  b.op(wait, 100, 120, 0, 0).op(test, 350, 401, 0, 1);
  const WaitStates states = wait_states_of(b);
  const PatternWaits* late = find(states, WaitPattern::late_sender);
  ASSERT_NE(late, nullptr);
  EXPECT_NEAR(late->lost_ns, 20 * kMs, kNs);
  EXPECT_EQ(late->instances, 1u) << "MPI_Test returns whether the message came or not";
}

TEST(WaitStates, ASynchronousSendThatWaitedForTheReceiveIsALateReceiver) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto ssend = b.site(SiteKind::mpi_send, "MPI_Ssend", "sync.c", 7);
  const auto eager = b.site(SiteKind::mpi_send, "MPI_Send", "sync.c", 9);
  b.op(ssend, 10, 40.1, 1, 0).op(eager, 50, 50.1, 1, 1);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(recv, 40, 40.2, 0, 0).op(recv, 90, 90.1, 0, 1);
  const WaitStates states = wait_states_of(b);
  const PatternWaits* late = find(states, WaitPattern::late_receiver);
  ASSERT_NE(late, nullptr);
  EXPECT_NEAR(late->lost_ns, 30 * kMs, kNs) << "the eager send returned before its receive was posted";
  ASSERT_EQ(late->sites.size(), 1u);
  EXPECT_EQ(late->sites[0].location, "sync.c:7");
  ASSERT_EQ(late->causes.size(), 1u);
  EXPECT_EQ(late->causes[0].rank, 1);
  EXPECT_EQ(find(states, WaitPattern::late_sender), nullptr);
}

TEST(WaitStates, ABarrierWhereRank2Arrives200MsLateCostsTheOthers200MsEach) {
  TraceRunBuilder b;
  const double arrive[] = {100, 100, 300};
  for (int r = 0; r < 3; ++r) {
    b.rank(r, 3, static_cast<std::uint32_t>(r));  // a different local id of the world on each rank
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier", "step.c", 33);
    b.op(barrier, arrive[r], 300.2, -1, 0);
  }
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::wait_at_barrier);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, 400 * kMs, kNs);
  EXPECT_EQ(w->instances, 2u);
  ASSERT_EQ(w->waiting.size(), 2u);
  for (const WaitingLocation& l : w->waiting) {
    EXPECT_NE(l.rank, 2) << "the late rank did not wait";
    EXPECT_NEAR(l.lost_ns, 200 * kMs, kNs) << "rank " << l.rank;
  }
  ASSERT_EQ(w->causes.size(), 1u);
  EXPECT_EQ(w->causes[0].rank, 2) << "rank 2 arrived last";
  EXPECT_NEAR(w->causes[0].lost_ns, 400 * kMs, kNs);
  ASSERT_EQ(w->sites.size(), 1u) << "the same file:line on every rank is one site";
  EXPECT_EQ(w->sites[0].location, "step.c:33");
}

TEST(WaitStates, AllreduceIsWaitAtNxN) {
  TraceRunBuilder b;
  const double arrive[] = {10, 25};
  for (int r = 0; r < 2; ++r) {
    b.rank(r, 2);
    const auto allreduce = b.site(SiteKind::mpi_reduction, "MPI_Allreduce");
    b.op(allreduce, arrive[r], 26, -1, 0);
  }
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::wait_at_nxn);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, 15 * kMs, kNs);
  EXPECT_EQ(find(states, WaitPattern::wait_at_barrier), nullptr);
}

// A fence the collector traced with its window's group (one that may end an epoch) is a Wait at
// Fence; one traced without (MPI_MODE_NOPRECEDE: it need not synchronize) is no instance at all.
TEST(WaitStates, AFenceWithItsWindowsGroupIsWaitAtFenceAndOneWithoutIsNoWait) {
  TraceRunBuilder b;
  const double arrive[] = {10, 40, 25};
  for (int r = 0; r < 3; ++r) {
    b.rank(r, 3);
    const auto fence = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_fence", "rma.c", 12);
    b.op(fence, 1, 2, -1, 0, 0, 0, /*on_world=*/false);  // MPI_MODE_NOPRECEDE
    b.op(fence, arrive[r], 41, -1, 0);
  }
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::wait_at_fence);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, (30 + 15) * kMs, kNs) << "ranks 0 and 2 wait for rank 1's arrival";
  EXPECT_EQ(w->instances, 2u) << "the fence without a group waited for no one";
  ASSERT_EQ(w->causes.size(), 1u);
  EXPECT_EQ(w->causes[0].rank, 1);
  EXPECT_EQ(w->sites[0].location, "rma.c:12");
  EXPECT_EQ(find(states, WaitPattern::wait_at_barrier), nullptr);
  EXPECT_EQ(find(states, WaitPattern::wait_at_nxn), nullptr);
  EXPECT_EQ(pattern_key(WaitPattern::wait_at_fence), "wait_at_fence");
  EXPECT_EQ(pattern_title(WaitPattern::wait_at_fence), "Wait at Fence");
}

TEST(WaitStates, NonRootRanksThatEnterABroadcastBeforeTheRootAreALateBroadcast) {
  TraceRunBuilder b;
  const double arrive[] = {500, 100, 300};  // the root, rank 0, comes last
  for (int r = 0; r < 3; ++r) {
    b.rank(r, 3);
    const auto bcast = b.site(SiteKind::mpi_broadcast, "MPI_Bcast", "bc.c", 5);
    b.op(bcast, arrive[r], 501, 0, 0);
  }
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::late_broadcast);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, (400 + 200) * kMs, kNs);
  EXPECT_EQ(w->instances, 2u);
  ASSERT_EQ(w->causes.size(), 1u);
  EXPECT_EQ(w->causes[0].rank, 0) << "the root was late";
  ASSERT_FALSE(w->waiting.empty());
  EXPECT_EQ(w->waiting[0].rank, 1) << "rank 1 came first and waited longest";
}

TEST(WaitStates, ARootThatEntersAReduceBeforeTheLastSenderIsAnEarlyReduce) {
  TraceRunBuilder b;
  const double arrive[] = {400, 100, 200};  // root 1 waits for rank 0
  for (int r = 0; r < 3; ++r) {
    b.rank(r, 3);
    const auto reduce = b.site(SiteKind::mpi_reduction, "MPI_Reduce");
    b.op(reduce, arrive[r], 401, 1, 0);
  }
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::early_reduce);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, 300 * kMs, kNs);
  ASSERT_EQ(w->waiting.size(), 1u);
  EXPECT_EQ(w->waiting[0].rank, 1) << "only the root waits in a reduce";
  ASSERT_EQ(w->causes.size(), 1u);
  EXPECT_EQ(w->causes[0].rank, 0);
  EXPECT_EQ(find(states, WaitPattern::late_broadcast), nullptr);
}

TEST(WaitStates, OpenMPBarrierAndLockWaitsComeFromTheWaitingThreads) {
  TraceRunBuilder b;
  b.rank(0, 1);
  const auto barrier = b.site(SiteKind::omp_implicit_barrier, "implicit barrier", "loop.c", 12);
  const auto lock = b.site(SiteKind::omp_critical, "critical", "loop.c", 20);
  format::TraceEvent e;
  e.kind = format::TraceEventKind::operation;
  e.site = barrier;
  e.duration = test::ms(3);
  e.wait = test::ms(2);
  b.event(e, 1);
  e.wait = 0;  // the last thread to arrive does not wait
  b.event(e, 0);
  e.sync = test::ms(1);  // an implicit barrier's waiting is its sync
  b.event(e, 3);
  e.sync = 0;
  e.site = lock;
  e.wait = test::ms(0.5);
  b.event(e, 2);
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::omp_barrier);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, 3 * kMs, kNs);
  ASSERT_EQ(w->waiting.size(), 2u);
  EXPECT_EQ(w->waiting[0].thread, 1u);
  EXPECT_EQ(w->waiting[1].thread, 3u);
  EXPECT_EQ(w->sites[0].location, "loop.c:12");
  const PatternWaits* l = find(states, WaitPattern::omp_lock);
  ASSERT_NE(l, nullptr);
  EXPECT_NEAR(l->lost_ns, 0.5 * kMs, kNs);
  EXPECT_EQ(l->waiting[0].thread, 2u);
}

// Two barriers of one team instance (match 7) on threads 0 and 1, and a barrier of another
// instance (match 8) on thread 1 alone in between: each thread's n-th barrier of an instance is
// the other's n-th. Thread 0 is late at the first (thread 1 waits 2 ms), thread 1 at the second
// (thread 0 waits 5 ms). Then a lock (wait id 99): thread 0 holds it from 20 ms, thread 1 asks at
// 21 ms and gets it at 23 ms, so thread 0 caused those 2 ms.
TEST(WaitStates, TheLastThreadToReachABarrierAndTheLockHolderBeforeAreTheCulprits) {
  TraceRunBuilder b;
  b.rank(0, 1);
  const auto barrier = b.site(SiteKind::omp_implicit_barrier, "implicit barrier", "loop.c", 12);
  const auto lock = b.site(SiteKind::omp_lock, "lock", "loop.c", 20);
  const auto arrive = [&](std::uint32_t thread, double at_ms, double waited_ms, std::int64_t instance) {
    format::TraceEvent e;
    e.kind = format::TraceEventKind::operation;
    e.site = barrier;
    e.ticks = test::ms(at_ms);
    e.sync = test::ms(waited_ms);
    e.duration = e.sync;
    e.match = instance;
    b.event(e, thread);
  };
  arrive(1, 0, 2, 7);
  arrive(1, 3, 0, 8);  // an inner team's barrier: not the next of instance 7
  arrive(1, 10, 0, 7);
  arrive(0, 2, 0, 7);
  arrive(0, 5, 5, 7);
  const auto acquire = [&](std::uint32_t thread, double at_ms, double waited_ms) {
    format::TraceEvent e;
    e.kind = format::TraceEventKind::operation;
    e.site = lock;
    e.ticks = test::ms(at_ms);
    e.wait = test::ms(waited_ms);
    e.duration = e.wait + test::ms(3);
    e.match = 99;
    b.event(e, thread);
  };
  acquire(0, 20, 0);
  acquire(1, 21, 2);
  const WaitStates states = wait_states_of(b);
  const PatternWaits* w = find(states, WaitPattern::omp_barrier);
  ASSERT_NE(w, nullptr);
  EXPECT_NEAR(w->lost_ns, 7 * kMs, kNs);
  ASSERT_EQ(w->causes.size(), 2u);
  EXPECT_EQ(w->causes[0].thread, std::optional<std::uint32_t>(1u)) << "thread 1 came 5 ms late";
  EXPECT_NEAR(w->causes[0].lost_ns, 5 * kMs, kNs);
  EXPECT_EQ(w->causes[1].thread, std::optional<std::uint32_t>(0u)) << "thread 0 came 2 ms late";
  EXPECT_NEAR(w->causes[1].lost_ns, 2 * kMs, kNs);
  const PatternWaits* l = find(states, WaitPattern::omp_lock);
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->causes.size(), 1u);
  EXPECT_EQ(l->causes[0].rank, 0);
  EXPECT_EQ(l->causes[0].thread, std::optional<std::uint32_t>(0u)) << "thread 0 held the lock";
  EXPECT_NEAR(l->causes[0].lost_ns, 2 * kMs, kNs);
}

TEST(WaitStates, ABalancedRunHasNone) {
  TraceRunBuilder b;
  for (int r = 0; r < 2; ++r) {
    b.rank(r, 2);
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier");
    b.op(barrier, 10, 11, -1, 0);
  }
  EXPECT_TRUE(wait_states_of(b).patterns.empty());
}

}  // namespace
}  // namespace parperf::analysis
