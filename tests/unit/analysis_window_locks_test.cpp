// MPI window locks handed on from one holder to the next (window_locks.hpp) and their edges in the
// activity graph: the order of the holds of one rank's lock follows from when each MPI_Win_lock
// returned, and each hold is linked to the releases it waited for. Built from hand-made calls whose
// answers follow from their construction (times in ms).
#include <gtest/gtest.h>

#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/wait_states.hpp"
#include "analysis/trace/window_locks.hpp"
#include "format/site_kinds.hpp"
#include "unit/analysis_handover_pairs.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kMs;
using test::TraceRunBuilder;

constexpr WindowKey kWindow{0x5EED, 0};
constexpr WindowKey kOtherWindow{0x5EED, 1};

// A call of rank `rank` (its `index`-th) from `start` to `end` ms.
CallSide side(std::int32_t rank, std::uint32_t index, double start, double end) {
  CallSide s;
  s.rank = rank;
  s.index = index;
  s.start_ns = start * kMs;
  s.end_ns = end * kMs;
  return s;
}

struct Hold {
  std::int32_t rank;
  double lock_start, lock_end, unlock_start, unlock_end;
  bool shared = false;
  std::int64_t target = 0;
  WindowKey window = kWindow;
};

// Each hold's lock and unlock (calls 2k and 2k+1 of its rank, k its rank's earlier holds).
std::vector<WindowLockEvent> calls_of(const std::vector<Hold>& holds) {
  std::vector<WindowLockEvent> events;
  std::vector<std::uint32_t> next_index(16, 0);
  for (const Hold& h : holds) {
    std::uint32_t& index = next_index[static_cast<std::size_t>(h.rank)];
    WindowLockEvent lock{true,     h.window,
                         h.target, WindowLockCall::lock,
                         h.shared, side(h.rank, index++, h.lock_start, h.lock_end)};
    WindowLockEvent unlock{true,     h.window,
                           h.target, WindowLockCall::unlock,
                           false,    side(h.rank, index++, h.unlock_start, h.unlock_end)};
    events.push_back(lock);
    events.push_back(unlock);
  }
  return events;
}

TEST(WindowLocks, ExclusiveHoldsAreHandedOnInTheOrderTheirLocksReturned) {
  // Ranks 2, 0 and 1 ask for rank 0's lock at 1 ms; 2 gets it at once and holds it until 10 ms,
  // then 0 until 20 ms, then 1. Given in another order than granted: the order is the locks' returns.
  const auto h = hand_over_window_locks(calls_of({
      {1, 1, 20.1, 30, 30.1},
      {0, 1, 10.1, 20, 20.1},
      {2, 1, 1.1, 10, 10.1},
  }));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{2, 1, 0, 0}, {0, 1, 1, 0}}))
      << "rank 2 hands the lock to rank 0 and rank 0 to rank 1: each unlock to the next lock";
  EXPECT_TRUE(h.unlinked.empty());
}

TEST(WindowLocks, SharedHoldsWaitForTheLastExclusiveAndAnExclusiveForEverySharedSinceIt) {
  // Rank 0 holds rank 3's lock exclusively until 10 ms; ranks 1 and 2 take it shared from 10.1 and
  // 10.2 ms to 20 and 25 ms; rank 3 takes it exclusively when both have released it (25.1 ms).
  const auto h = hand_over_window_locks(calls_of({
      {0, 1, 1.1, 10, 10.05, false, 3},
      {1, 1, 10.1, 20, 20.1, true, 3},
      {2, 1, 10.2, 25, 25.05, true, 3},
      {3, 1, 25.1, 30, 30.1, false, 3},
  }));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 1, 1, 0}, {0, 1, 2, 0}, {1, 1, 3, 0}, {2, 1, 3, 0}}))
      << "each shared hold waited for rank 0's release; rank 3's exclusive one for both shared";
  EXPECT_TRUE(h.unlinked.empty());
}

TEST(WindowLocks, SharedHoldsOfALockNoOneTakesExclusivelyWaitForNothing) {
  const auto h = hand_over_window_locks(calls_of({
      {0, 1, 1.1, 10, 10.1, true},
      {1, 2, 2.1, 5, 5.1, true},
  }));
  EXPECT_TRUE(h.handovers.empty());
  EXPECT_TRUE(h.unlinked.empty()) << "shared holds do not exclude each other";
}

TEST(WindowLocks, ALockGrantedBeforeThePreviousHolderReleasedItIsLazyAndNotLinked) {
  // Rank 1's MPI_Win_lock returns at 1.1 ms while rank 0 holds the lock until 10 ms: the
  // implementation took it at the unlock (20 to 25 ms, where rank 1 really waited).
  const auto h = hand_over_window_locks(calls_of({
      {0, 1, 1.05, 10, 10.1},
      {1, 1, 1.1, 20, 25},
  }));
  EXPECT_TRUE(h.handovers.empty()) << "a lazy lock's return says nothing of when it was granted";
  ASSERT_EQ(h.unlinked.size(), 1u);
  EXPECT_EQ(h.unlinked[0].rank, 1);
  EXPECT_EQ(h.unlinked[0].index, 0u) << "rank 1's MPI_Win_lock";
}

TEST(WindowLocks, AHolderThatNeverReleasedLeavesTheNextAcquisitionUnlinked) {
  std::vector<WindowLockEvent> events = calls_of({{0, 1, 1.1, 0, 0}, {1, 1, 12, 20, 20.1}});
  events.erase(events.begin() + 1);  // rank 0's unlock: the run ended first
  const auto h = hand_over_window_locks(events);
  EXPECT_TRUE(h.handovers.empty());
  ASSERT_EQ(h.unlinked.size(), 1u);
  EXPECT_EQ(h.unlinked[0].rank, 1);
}

TEST(WindowLocks, LocksOfAnotherWindowOrRankAreAnotherLockAndAnUnnamedWindowIsUnlinked) {
  std::vector<WindowLockEvent> events = calls_of({
      {0, 1, 1.1, 10, 10.1},                          // window, rank 0's lock
      {1, 1, 2.1, 10, 10.1, false, 1},                // window, rank 1's: no wait for rank 0
      {2, 1, 3.1, 10, 10.1, false, 0, kOtherWindow},  // another window
      {3, 1, 10.2, 20, 20.1},                         // window, rank 0's lock, after rank 0
  });
  WindowLockEvent unnamed{false, {}, 0, WindowLockCall::lock, false, side(4, 0, 1, 30)};
  events.push_back(unnamed);
  const auto h = hand_over_window_locks(events);
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 1, 3, 0}}));
  ASSERT_EQ(h.unlinked.size(), 1u) << "the lock of a window the trace does not name";
  EXPECT_EQ(h.unlinked[0].rank, 4);
}

TEST(WindowLocks, LockAllTakesEveryRanksLockShared) {
  // Rank 0 takes rank 1's lock exclusively until 10 ms; rank 2's MPI_Win_lock_all returns after
  // it (10.2 ms) and holds every lock until 20 ms; rank 3 then takes rank 1's lock exclusively.
  const auto h = hand_over_window_locks(calls_of({
      {0, 1, 1.1, 10, 10.1, false, 1},
      {2, 1, 10.2, 20, 20.1, true, -1},
      {3, 1, 20.2, 30, 30.1, false, 1},
  }));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 1, 2, 0}, {2, 1, 3, 0}}));
  EXPECT_TRUE(h.unlinked.empty());
}

// Three ranks take rank 0's lock of their world's window exclusively in turn (rank r asks at 1 ms,
// gets it at 1.1 + 10r ms, works 9.8 ms holding it and unlocks in 0.1 ms), then meet at a barrier
// that ends at 31.3 ms. Each rank's waiting is for the previous holder's work: the graph links each
// release to the next acquisition, so an ideal network keeps the wait and a faster holder shortens
// it.
TEST(WindowLockGraph, EachAcquisitionWaitsForThePreviousRelease) {
  TraceRunBuilder b;
  const auto exclusive = static_cast<std::int64_t>(format::WindowLockType::exclusive);
  for (std::int64_t r = 0; r < 3; ++r) {
    b.rank(r, 3);
    const auto init = b.site(SiteKind::mpi_management, "MPI_Init");
    const auto lock = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_lock", "lock.c", 10);
    const auto unlock = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_unlock", "lock.c", 12);
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier");
    const auto finalize = b.site(SiteKind::mpi_management, "MPI_Finalize");
    const double granted = 1.1 + 10 * static_cast<double>(r);
    b.op(init, 0, 0.5, -1, 0, 0, 0, false)
        .op(lock, 1, granted, 0, exclusive)
        .op(unlock, granted + 9.8, granted + 9.9, 0, 0)
        .op(barrier, granted + 10, 31.3, -1, 0)
        .op(finalize, 32, 33, -1, 0, 0, 0, false);
  }
  const TraceRun run = b.build();
  const Communication communication = match_communication(run);
  EXPECT_EQ(communication.window_locks.handovers.size(), 2u);
  const ActivityGraph g = build_activity_graph(run, communication);
  EXPECT_EQ(g.linked.window_lock_handovers, 2u) << "rank 0 to rank 1, rank 1 to rank 2";
  EXPECT_EQ(g.unlinked.window_waits, 0u) << "every lock's wait is linked";
  std::vector<double> from, to;
  g.for_each_edge([&](std::uint32_t node, std::uint32_t e) {
    if (g.edges[e].kind != EdgeKind::remote_lock) return;
    from.push_back(g.time[g.edges[e].source] / kMs);
    to.push_back(g.time[node] / kMs);
  });
  ASSERT_EQ(from.size(), 2u);
  EXPECT_NEAR(from[0], 11.0, 1e-6) << "rank 0's unlock ends";
  EXPECT_NEAR(to[0], 11.1, 1e-6) << "into rank 1's lock's end";
  EXPECT_NEAR(from[1], 21.0, 1e-6);
  EXPECT_NEAR(to[1], 21.1, 1e-6);

  // Lock Competition: rank 1 waited from 1 ms to rank 0's release (11 ms), rank 2 to rank 1's (21 ms).
  const WaitStates states = find_wait_states(run, communication);
  const PatternWaits* competition = nullptr;
  for (const PatternWaits& p : states.patterns)
    if (p.pattern == WaitPattern::lock_competition) competition = &p;
  ASSERT_NE(competition, nullptr) << "no Lock Competition among the wait states";
  EXPECT_NEAR(competition->lost_ns, 30 * kMs, 1e-3 * kMs);
  EXPECT_EQ(competition->instances, 2u);
  ASSERT_EQ(competition->causes.size(), 2u);
  EXPECT_EQ(competition->causes[0].rank, 1) << "rank 1 held the lock while rank 2 waited 20 ms";
  EXPECT_NEAR(competition->causes[0].lost_ns, 20 * kMs, 1e-3 * kMs);
  ASSERT_FALSE(competition->sites.empty());
  EXPECT_EQ(competition->sites[0].location, "lock.c:10");
  EXPECT_EQ(pattern_key(WaitPattern::lock_competition), "lock_competition");
  EXPECT_EQ(pattern_title(WaitPattern::lock_competition), "Lock Competition");

  const double measured = g.end_ns - g.start_ns;
  ReplayChanges ideal;
  ideal.network = ReplayChanges::Network::ideal;
  // The ideal network takes the calls' own time (the unlocks', the lock handovers' 0.1 ms, the
  // barrier's) and keeps the holders' work, 3 x 9.8 ms in a row.
  const double predicted = replay(g, NetworkModel{}, ideal).length();
  EXPECT_GE(predicted, 3 * 9.8 * kMs) << "an ideal network does not free a rank from waiting for the holder";
  EXPECT_LE(predicted, measured);
  const Pop pop = pop_factors(g, NetworkModel{});
  ASSERT_TRUE(pop.overall.transfer_efficiency && pop.overall.serialisation_efficiency);
  EXPECT_GT(*pop.overall.transfer_efficiency, 0.9) << "no data moved: nothing for a faster network to gain";
  EXPECT_LT(*pop.overall.serialisation_efficiency, 0.4) << "the ranks hold the lock one after the other";
}

}  // namespace
}  // namespace parperf::analysis
