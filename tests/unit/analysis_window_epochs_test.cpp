// MPI's post-start-complete-wait linked across ranks (window_epochs.hpp) and its edges in the
// activity graph: each start to the post of every target in its group, each wait to the complete of
// every origin in its post's group, paired in order per (origin, target). Built from hand-made calls
// whose answers follow from their construction (times in ms).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/wait_states.hpp"
#include "analysis/trace/window_epochs.hpp"
#include "format/site_kinds.hpp"
#include "unit/analysis_handover_pairs.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kMs;
using test::TraceRunBuilder;

constexpr WindowKey kWindow{0x5EED, 0};

// Events of one rank, its calls numbered in the order they are added.
class RankCalls {
 public:
  explicit RankCalls(std::int32_t rank) : rank_(rank) {}
  // A post or start of `members` (its own event and one per further member, at its end).
  RankCalls& group(WindowEpochCall call, std::vector<std::int64_t> members, double start, double end) {
    const auto size = static_cast<std::int64_t>(members.size());
    add(call, members.empty() ? -1 : members[0], size, start, end);
    for (std::size_t m = 1; m < members.size(); ++m)
      add(call, members[m], format::kWindowGroupMember, end, end);
    return *this;
  }
  RankCalls& ending(WindowEpochCall call, double start, double end, bool ended = true) {
    add(call, -1, ended ? 1 : 0, start, end);
    return *this;
  }
  RankCalls& unnamed(WindowEpochCall call, double start, double end) {
    add(call, -1, 0, start, end);
    events_.back().known_window = false;
    return *this;
  }
  const std::vector<WindowEpochEvent>& events() const { return events_; }

 private:
  void add(WindowEpochCall call, std::int64_t partner, std::int64_t match, double start, double end) {
    WindowEpochEvent e;
    e.known_window = true;
    e.window = kWindow;
    e.call = call;
    e.partner = partner;
    e.match = match;
    e.side.rank = rank_;
    e.side.index = index_++;
    e.side.site = static_cast<std::uint32_t>(call);  // one site per call, as a collector's
    e.side.start_ns = start * kMs;
    e.side.end_ns = end * kMs;
    events_.push_back(e);
  }
  std::int32_t rank_;
  std::uint32_t index_ = 0;
  std::vector<WindowEpochEvent> events_;
};

std::vector<WindowEpochEvent> all(std::initializer_list<const RankCalls*> ranks) {
  std::vector<WindowEpochEvent> out;
  for (const RankCalls* r : ranks) out.insert(out.end(), r->events().begin(), r->events().end());
  return out;
}

using enum WindowEpochCall;

TEST(WindowEpochs, EachStartIsLinkedToItsTargetsPostAndEachWaitToItsOriginsComplete) {
  // Rank 0 exposes its window to ranks 1 and 2 (post at 5 ms) and waits (calls 0-1, 2); ranks 1 and 2
  // start at 1 ms, wait for the post until 5.1 ms, and complete at 8 and 12 ms (calls 0, 1).
  RankCalls target(0), first(1), second(2);
  target.group(post, {1, 2}, 5, 5.05).ending(wait, 5.1, 12.2);
  first.group(start, {0}, 1, 5.1).ending(complete, 8, 8.1);
  second.group(start, {0}, 1, 5.1).ending(complete, 12, 12.1);
  const LockHandovers h = link_window_epochs(all({&target, &first, &second}));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 0, 1, 0}, {0, 0, 2, 0}, {1, 1, 0, 2}, {2, 1, 0, 2}}));
  EXPECT_TRUE(h.unlinked.empty());
}

TEST(WindowEpochs, EpochsArePairedInOrderPerOriginAndTarget) {
  // Two rounds between ranks 0 (target) and 1 (origin): the second start goes with the second post.
  RankCalls target(0), origin(1);
  target.group(post, {1}, 1, 1.1).ending(wait, 1.2, 4).group(post, {1}, 10, 10.1).ending(wait, 10.2, 14);
  origin.group(start, {0}, 0.5, 1.2)
      .ending(complete, 3.8, 3.9)
      .group(start, {0}, 5, 10.2)
      .ending(complete, 13.8, 13.9);
  const LockHandovers h = link_window_epochs(all({&target, &origin}));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 0, 1, 0}, {1, 1, 0, 1}, {0, 2, 1, 2}, {1, 3, 0, 3}}));
  EXPECT_TRUE(h.unlinked.empty());
}

TEST(WindowEpochs, ALazyStartIsLinkedThroughItsComplete) {
  // The start returns at once (0.6 ms), before the post began (3 ms): the complete waited instead.
  RankCalls target(0), origin(1);
  target.group(post, {1}, 3, 3.1).ending(wait, 3.2, 6);
  origin.group(start, {0}, 0.5, 0.6).ending(complete, 0.7, 5.9);
  const LockHandovers h = link_window_epochs(all({&target, &origin}));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 0, 1, 1}, {1, 1, 0, 1}}))
      << "the post lets the complete go, the complete the wait";
  EXPECT_TRUE(h.unlinked.empty());
}

TEST(WindowEpochs, ATestThatEndedTheExposureIsLinkedAndOnesThatDidNotAreSkipped) {
  RankCalls target(0), origin(1);
  target.group(post, {1}, 1, 1.1).ending(test, 2, 2.1, false).ending(test, 5, 5.1, true);
  origin.group(start, {0}, 1, 1.2).ending(complete, 4, 4.1);
  const LockHandovers h = link_window_epochs(all({&target, &origin}));
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 0, 1, 0}, {1, 1, 0, 2}}));
  EXPECT_TRUE(h.unlinked.empty());
}

TEST(WindowEpochs, WhatTheTraceDoesNotHoldIsCountedNeverGuessed) {
  // Rank 1 starts an epoch to ranks 0 and 2; rank 2 never posts; rank 3's start names no window;
  // rank 4's start lost its group's second member (a damaged trace).
  RankCalls target(0), origin(1), absent(2), unnamed(3), damaged(4);
  target.group(post, {1}, 1, 1.1).ending(wait, 1.2, 4);
  origin.group(start, {0, 2}, 1, 1.2).ending(complete, 3.8, 3.9);
  unnamed.unnamed(start, 1, 2).unnamed(complete, 3, 4);
  damaged.group(start, {0, 2}, 1, 1.2);
  std::vector<WindowEpochEvent> events = all({&target, &origin, &absent, &unnamed, &damaged});
  events.pop_back();  // rank 4's second member
  const LockHandovers h = link_window_epochs(events);
  EXPECT_EQ(pairs(h), (std::vector<Pair>{{0, 0, 1, 0}, {1, 2, 0, 1}}));
  std::vector<std::int32_t> unlinked_ranks;
  for (const CallSide& s : h.unlinked) unlinked_ranks.push_back(s.rank);
  EXPECT_EQ(unlinked_ranks, (std::vector<std::int32_t>{1, 3, 4}))
      << "rank 1's start waited for rank 2's post too, rank 3's names no window, rank 4's group is cut";
}

// Two ranks in a ring of post-start-complete-wait: rank 1 works 10 ms, rank 0 1 ms; each posts to
// and starts on the other. Rank 0's start waits for rank 1's post: the graph links them, so a faster
// rank 1 shortens rank 0's wait, and an ideal network keeps it.
TEST(WindowEpochGraph, AStartWaitsForThePostOfItsTarget) {
  TraceRunBuilder b;
  for (std::int64_t r = 0; r < 2; ++r) {
    b.rank(r, 2);
    const auto init = b.site(SiteKind::mpi_management, "MPI_Init");
    const auto post = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_post", "pscw.c", 10);
    const auto start = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_start", "pscw.c", 11);
    const auto complete = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_complete", "pscw.c", 12);
    const auto wait = b.site(SiteKind::mpi_one_sided_sync, "MPI_Win_wait", "pscw.c", 13);
    const auto finalize = b.site(SiteKind::mpi_management, "MPI_Finalize");
    const double worked = r == 0 ? 1 : 10;  // from 0.5 ms
    const std::int64_t other = 1 - r;
    b.op(init, 0, 0.5, -1, 0, 0, 0, false)
        .op(post, 0.5 + worked, 0.6 + worked, other, 1)
        .op(start, 0.6 + worked, 10.7, other, 1)
        .op(complete, 10.7, 10.8, -1, 1)
        .op(wait, 10.8, 10.9, -1, 1)
        .op(finalize, 11, 12, -1, 0, 0, 0, false);
  }
  const TraceRun run = b.build();
  const Communication communication = match_communication(run);
  EXPECT_EQ(communication.window_epochs.handovers.size(), 4u) << "both starts and both waits";
  const ActivityGraph g = build_activity_graph(run, communication);
  EXPECT_EQ(g.linked.window_epoch_links, 4u);
  EXPECT_EQ(g.unlinked.window_waits, 0u);
  bool post_to_start = false;
  g.for_each_edge([&](std::uint32_t node, std::uint32_t e) {
    if (g.edges[e].kind != EdgeKind::window_epoch) return;
    if (std::abs(g.time[g.edges[e].source] / kMs - 10.5) < 1e-6 && std::abs(g.time[node] / kMs - 10.7) < 1e-6)
      post_to_start = true;
  });
  EXPECT_TRUE(post_to_start) << "rank 1's post's begin (10.5 ms) -> rank 0's start's end (10.7 ms)";

  // Late Post: rank 0's start waited from 1.6 ms to rank 1's post (10.5 ms). Rank 1's start came after
  // rank 0's post, and each wait after the other's complete: no Early Wait.
  const WaitStates states = find_wait_states(run, communication);
  const PatternWaits* late_post = nullptr;
  for (const PatternWaits& p : states.patterns) {
    if (p.pattern == WaitPattern::late_post) late_post = &p;
    EXPECT_NE(p.pattern, WaitPattern::early_wait) << "no wait waited for a complete";
  }
  ASSERT_NE(late_post, nullptr) << "no Late Post among the wait states";
  EXPECT_NEAR(late_post->lost_ns, 8.9 * kMs, 1e-3 * kMs);
  EXPECT_EQ(late_post->instances, 1u);
  ASSERT_EQ(late_post->causes.size(), 1u);
  EXPECT_EQ(late_post->causes[0].rank, 1);
  ASSERT_FALSE(late_post->sites.empty());
  EXPECT_EQ(late_post->sites[0].location, "pscw.c:11");
  EXPECT_EQ(pattern_key(WaitPattern::late_post), "late_post");
  EXPECT_EQ(pattern_title(WaitPattern::early_wait), "Early Wait");

  const double measured = g.end_ns - g.start_ns;
  ReplayChanges ideal;
  ideal.network = ReplayChanges::Network::ideal;
  const double on_ideal = replay(g, NetworkModel{}, ideal).length();
  EXPECT_GE(on_ideal, 10 * kMs) << "rank 0 still waits for rank 1's work on an ideal network";
  EXPECT_LE(on_ideal, measured);
}

}  // namespace
}  // namespace parperf::analysis
