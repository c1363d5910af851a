// The analyses of the activity graph (clock repair, replay, critical path, POP factors) on graphs
// built by hand, whose answers follow from their construction.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/replay.hpp"

namespace parperf::analysis {
namespace {

// A graph of locations given as (time, segment ending there, interval frame) per node, with edges;
// nodes are numbered location by location, and the order is by location, then node (every test
// graph's edges go from a lower location to a higher one, or through hubs placed before their
// targets by `hub_before`).
struct Node {
  double time;
  SegmentKind segment = SegmentKind::useful;
  std::uint32_t stack = 0;
};

// An edge with the node it leads into (the graph stores its edges by that node).
struct Link {
  std::uint32_t source;
  std::uint32_t target;
  EdgeKind kind = EdgeKind::message;
  std::uint8_t hops = 1;
  std::uint64_t bytes = 0;
};

ActivityGraph graph(const std::vector<std::vector<Node>>& locations, const std::vector<Link>& edges,
                    const std::vector<double>& hubs = {}, const std::vector<std::uint32_t>& order = {}) {
  ActivityGraph g;
  g.stacks.push_back({});
  g.operations.emplace_back();
  for (std::size_t l = 0; l < locations.size(); ++l) {
    GraphLocation loc{static_cast<std::int64_t>(l), 0, false, static_cast<std::uint32_t>(g.time.size()), 0};
    for (const Node& n : locations[l]) {
      // The graph knows a location's first node by its segment (ActivityGraph::previous).
      EXPECT_EQ(n.segment == SegmentKind::startup, g.time.size() == loc.first)
          << "a test graph's location begins with its start-up, and has only one";
      g.time.push_back(n.time);
      g.segment.push_back(n.segment);
      g.stack.push_back(n.stack);
      g.operation.push_back(0);
    }
    loc.end = static_cast<std::uint32_t>(g.time.size());
    g.locations.push_back(loc);
  }
  for (const double t : hubs) {
    g.time.push_back(t);
    g.segment.push_back(SegmentKind::mpi);
    g.stack.push_back(0);
    g.operation.push_back(0);
  }
  std::vector<GraphEdge> linked;
  std::vector<std::uint32_t> targets;
  for (const Link& e : edges) {
    linked.push_back({e.source, e.kind, e.hops, e.bytes});
    targets.push_back(e.target);
  }
  g.set_edges(linked, targets);
  if (order.empty())
    for (std::uint32_t k = 0; k < g.time.size(); ++k) g.order.push_back(k);
  else
    g.order = NodeOrder(order);
  g.start_ns = 0;
  for (const GraphLocation& l : g.locations) g.end_ns = std::max(g.end_ns, g.time[l.end - 1]);
  return g;
}

TEST(ClockRepair, AReceiveThatEndedBeforeItsSendBeganMovesJustAfterItAndTheShiftIsAmortized) {
  // Rank 0: send begins at 100 (node 1). Rank 1: its receive ends at 90 (node 6), 10 ns too early.
  ActivityGraph g = graph({{{0, SegmentKind::startup}, {100}, {110, SegmentKind::mpi}, {300}},
                           {{0, SegmentKind::startup}, {50}, {90, SegmentKind::mpi}, {200}}},
                          {{1, 6, EdgeKind::message, 1, 8}});
  const ClockRepair repair = repair_clock_condition(g);
  EXPECT_EQ(repair.violations, 1u);
  EXPECT_DOUBLE_EQ(g.time[6], 100) << "the receive ends when its send began, not before";
  EXPECT_DOUBLE_EQ(g.time[7], 100 + kAmortization * 110) << "the next node keeps 99 % of its distance";
  EXPECT_EQ(repair.moved, 2u);
  EXPECT_DOUBLE_EQ(repair.largest_shift_ns, 10);
  EXPECT_DOUBLE_EQ(repair.repaired(1, 150), 100 + kAmortization * 60)
      << "an event between two nodes moves too";
  EXPECT_DOUBLE_EQ(repair.repaired(0, 150), 150) << "rank 0 did not move";
  EXPECT_DOUBLE_EQ(g.cost(6), 0) << "after the repair the receive costs nothing beyond its wait";
}

TEST(ClockRepair, TheMatchedMessagesMoveWithTheirLocationsSoTheWaitStatesSeeTheRepairedTimes) {
  ActivityGraph g = graph({{{0, SegmentKind::startup}, {100}, {110, SegmentKind::mpi}, {300}},
                           {{0, SegmentKind::startup}, {50}, {90, SegmentKind::mpi}, {200}}},
                          {{1, 6, EdgeKind::message, 1, 8}});
  const ClockRepair repair = repair_clock_condition(g);
  Communication c;
  Message m;
  m.send = {.rank = 0, .index = 1, .start_ns = 100, .end_ns = 110};
  m.receive = {.rank = 1, .index = 2, .start_ns = 50, .end_ns = 90};
  c.messages.push_back(m);
  CollectiveInstance barrier;
  barrier.members = {{.rank = 0, .index = 3, .start_ns = 200, .end_ns = 300},
                     {.rank = 1, .index = 3, .start_ns = 150, .end_ns = 200}};
  c.collectives.push_back(barrier);
  repair_communication(c, repair);
  EXPECT_DOUBLE_EQ(c.messages[0].receive.end_ns, 100) << "the receive ends when the graph's does";
  EXPECT_DOUBLE_EQ(c.messages[0].receive.start_ns, 50) << "before the moved node nothing moves";
  EXPECT_DOUBLE_EQ(c.messages[0].send.start_ns, 100) << "rank 0 did not move";
  EXPECT_DOUBLE_EQ(c.collectives[0].members[1].start_ns, 100 + kAmortization * 60);
  EXPECT_DOUBLE_EQ(c.collectives[0].members[1].end_ns, g.time[7]);
  EXPECT_DOUBLE_EQ(c.collectives[0].members[0].end_ns, 300);
}

// Two ranks meet through hub 6: rank 0 arrives at 100 (node 1) and leaves at 200 (node 2), rank 1
// arrives at 50 (node 4) and leaves at `rank1_leaves` (node 5); the hub was given `hub_at`.
ActivityGraph two_ranks_through_a_hub(double hub_at, double rank1_leaves) {
  return graph({{{0, SegmentKind::startup}, {100, SegmentKind::useful}, {200, SegmentKind::mpi}},
                {{0, SegmentKind::startup}, {50, SegmentKind::useful}, {rank1_leaves, SegmentKind::mpi}}},
               {{1, 6, EdgeKind::collective, 1, 0},
                {4, 6, EdgeKind::collective, 1, 0},
                {6, 2, EdgeKind::collective, 1, 0},
                {6, 5, EdgeKind::collective, 1, 0}},
               {hub_at}, {0, 1, 3, 4, 6, 2, 5});
}

TEST(ClockRepair, AHubGivenATimeBeforeItsLastArrivalMovesWhatWaitsForItThoughNoDependencyRanBackwards) {
  // The hub was given 60, before rank 0's arrival, and rank 1 leaves at 90: measured, no dependency
  // runs backwards (60 <= 90), but the hub is its last arrival, 100, and rank 1 cannot leave before it.
  ActivityGraph g = two_ranks_through_a_hub(60, 90);
  const ClockRepair repair = repair_clock_condition(g);
  EXPECT_EQ(repair.violations, 0u) << "measured, every dependency ran forward";
  EXPECT_DOUBLE_EQ(g.time[6], 100) << "the hub is its last arrival";
  EXPECT_DOUBLE_EQ(g.time[5], 100) << "rank 1 leaves when the hub was reached";
  EXPECT_EQ(repair.moved, 1u);
  EXPECT_EQ(repair.remaining, 0u);
}

TEST(ClockRepair, WhenNothingRanBackwardsNoNodeMovesAndAHubTakesItsLastArrival) {
  ActivityGraph g = two_ranks_through_a_hub(120, 150);
  const std::vector<double> measured = g.time;
  const ClockRepair repair = repair_clock_condition(g);
  EXPECT_EQ(repair.moved, 0u);
  EXPECT_DOUBLE_EQ(g.time[6], 100) << "a hub given a time after its last arrival is set back to it";
  for (std::uint32_t k = 0; k < 6; ++k) EXPECT_DOUBLE_EQ(g.time[k], measured[k]) << "node " << k;
}

// RepairedTimes walks the anchors from the one it found last: whatever order the moments come in
// (forward as a location's events, back and forth as its calls' starts and ends, far jumps, before
// the first anchor, after the last, on an anchor, NaN), it gives ClockRepair::repaired's values.
TEST(ClockRepair, TheWalkedAnchorsGiveTheSearchedOnesValuesInAnyOrder) {
  // 1000 moved nodes of 1500, in runs of two moved and one not (the anchors keep runs of nodes).
  std::vector<double> repaired_times(1500, -1);
  LocationAnchors anchors(repaired_times);
  for (int i = 0; i < 1000; ++i) {
    const auto node = static_cast<std::uint32_t>(i + i / 2);
    repaired_times[node] = 100.0 * i + 50 + (i % 3);
    anchors.add(node, 100.0 * i + (i % 7));
  }
  anchors.finish();
  ClockRepair repair;
  repair.anchors = {anchors};
  std::vector<double> moments;
  for (int i = -5; i < 1010; ++i) moments.push_back(100.0 * i + 3);               // forward
  for (int i = 0; i < 1000; ++i) moments.push_back(100.0 * i + (i % 7));          // exactly on each anchor
  for (int i = 1009; i > -5; --i) moments.push_back(100.0 * i - 1);               // backward
  for (int i = 0; i < 3000; ++i) moments.push_back((i * 7919) % 101000 - 200.0);  // jumping about
  for (int i = 0; i < 1000; ++i) moments.push_back(i % 2 ? 100.0 * i + 40 : 100.0 * i - 30);
  moments.push_back(std::numeric_limits<double>::quiet_NaN());
  moments.push_back(50);
  RepairedTimes walked(repair.anchors[0]);
  for (std::size_t i = 0; i < moments.size(); ++i) {
    const double expected = repair.repaired(0u, moments[i]);
    const double got = walked(moments[i]);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "moment " << i;
      continue;
    }
    ASSERT_EQ(got, expected) << "moment " << i << " (" << moments[i] << " ns): walking the anchors gives "
                             << got << " ns where searching them gives " << expected << " ns";
  }
  const LocationAnchors none(repaired_times);
  RepairedTimes unmoved(none);
  EXPECT_EQ(unmoved(123.0), 123.0) << "a location without anchors keeps its times";
}

// The anchors keep a moved node's measured time and read its repaired one from the graph: in node
// order (runs of consecutive nodes) where that is the order of (measured, repaired), else sorted as a
// stable sort of the pairs would, each keeping its node.
TEST(ClockRepair, TheAnchorsGiveThePairsOfMeasuredAndRepairedTimesInTheOrderASortOfThePairsGives) {
  const auto pairs_of = [](const LocationAnchors& a) {
    std::vector<std::pair<double, double>> pairs;
    for (std::size_t i = 0; i < a.size(); ++i) pairs.emplace_back(a.measured(i), a.repaired(i));
    return pairs;
  };
  // In order: nodes 2-4 and 7-8 moved (two runs), node 5 and 6 did not.
  const std::vector<double> in_order_times = {0, 0, 12, 13, 15, 0, 0, 19, 21};
  LocationAnchors in_order(in_order_times);
  const std::vector<std::pair<std::uint32_t, double>> moved = {{2, 10}, {3, 11}, {4, 14}, {7, 18}, {8, 20}};
  for (const auto& [node, measured] : moved) in_order.add(node, measured);
  in_order.finish();
  EXPECT_EQ(pairs_of(in_order),
            (std::vector<std::pair<double, double>>{{10, 12}, {11, 13}, {14, 15}, {18, 19}, {20, 21}}));
  EXPECT_EQ(in_order.last_measured(), 20);
  // Out of order (measured times that went back, ties with different repaired times): as sorted.
  const std::vector<double> times = {30, 25, 26, 40, 26};
  LocationAnchors shuffled(times);
  const std::vector<double> measured = {20, 21, 21, 5, 21};
  std::vector<std::pair<double, double>> expected;
  for (std::uint32_t node = 0; node < 5; ++node) {
    shuffled.add(node, measured[node]);
    expected.emplace_back(measured[node], times[node]);
  }
  std::stable_sort(expected.begin(), expected.end());
  shuffled.finish();
  EXPECT_EQ(pairs_of(shuffled), expected);
}

TEST(Replay, AsMeasuredGivesTheMeasuredTimesBackAndTheCriticalPathIsTheRunsLength) {
  // Rank 0 works 100 and sends; rank 1 waits from 0 and works 100 after the message (102).
  const ActivityGraph g = graph({{{0, SegmentKind::startup}, {100}, {101, SegmentKind::mpi}},
                                 {{0, SegmentKind::startup}, {0}, {102, SegmentKind::mpi}, {202}}},
                                {{1, 5, EdgeKind::message, 1, 8}});
  ReplayChanges measured;
  measured.network = ReplayChanges::Network::measured;
  const ReplayResult r = replay(g, NetworkModel{}, measured, ReplayDetail::path);
  for (std::uint32_t k = 0; k < g.nodes(); ++k) EXPECT_DOUBLE_EQ(r.time[k], g.time[k]) << "node " << k;
  const CriticalPath path = critical_path(g, r);
  EXPECT_DOUBLE_EQ(path.length_ns, 202);
  ASSERT_EQ(path.locations.size(), 2u) << "rank 0's work, then the message, then rank 1's work";
  EXPECT_DOUBLE_EQ(path.locations[0].time_ns + path.locations[1].time_ns, 202);
  EXPECT_EQ(path.location_changes, 1u);
  EXPECT_NEAR(path.while_others_wait_ns, 200, 1e-9) << "both works are serial: nobody else worked meanwhile";

  // The chain's factors: each works 100 of 202; on an ideal network the chain takes 200.
  const Pop pop = pop_factors(g, NetworkModel{});
  EXPECT_DOUBLE_EQ(pop.overall.load_balance, 1);
  EXPECT_DOUBLE_EQ(pop.ideal_time_ns, 200);
  EXPECT_DOUBLE_EQ(*pop.overall.serialisation_efficiency, 0.5);
  EXPECT_DOUBLE_EQ(*pop.overall.transfer_efficiency, 200.0 / 202);
  EXPECT_DOUBLE_EQ(pop.overall.parallel_efficiency, 100.0 / 202);
}

TEST(Pop, TheIdealNetworkAloneKeepsTheOpenMpSynchronizationThatTheIdealRuntimeAlsoFrees) {
  // One thread: 100 of work, 30 in an MPI call, 50 in an OpenMP barrier, 100 of work.
  const ActivityGraph g = graph(
      {{{0, SegmentKind::startup}, {100}, {130, SegmentKind::mpi}, {180, SegmentKind::openmp}, {280}}}, {});
  const Pop pop = pop_factors(g, NetworkModel{});
  EXPECT_DOUBLE_EQ(pop.ideal_time_ns, 200) << "ideal network and runtime: only the work is left";
  EXPECT_DOUBLE_EQ(pop.ideal_mpi_time_ns, 250)
      << "the ideal network alone frees the MPI call, not the barrier";

  // Without OpenMP synchronization (POP then replays the ideal network once), both are the same.
  const ActivityGraph mpi_only =
      graph({{{0, SegmentKind::startup}, {100}, {130, SegmentKind::mpi}, {230}}}, {});
  const Pop mpi_pop = pop_factors(mpi_only, NetworkModel{});
  EXPECT_DOUBLE_EQ(mpi_pop.ideal_time_ns, 200);
  EXPECT_DOUBLE_EQ(mpi_pop.ideal_mpi_time_ns, 200);
}

TEST(Pop, AnIdealNetworkLeavesFileIoAsMeasuredForItIsNoTransfer) {
  // One rank: 100 of work, 30 in MPI_File_write, 100 of work, 30 in an MPI_Send.
  ActivityGraph g = graph(
      {{{0, SegmentKind::startup}, {100}, {130, SegmentKind::mpi}, {230}, {260, SegmentKind::mpi}}}, {});
  g.operations = {"", "MPI_File_write", "MPI_Send"};
  g.operation[2] = 1;
  g.operation[4] = 2;
  const Pop pop = pop_factors(g, NetworkModel{});
  EXPECT_DOUBLE_EQ(pop.ideal_time_ns, 230) << "an ideal network frees the send's 30, not the file system's";
  EXPECT_DOUBLE_EQ(*pop.overall.transfer_efficiency, 230.0 / 260);
}

TEST(NetworkModel, ItIsNeverSlowerThanAMessageThatWasNotWaitedForSoTheReplayGivesTheRunBack) {
  // Two messages of 1 MiB. Rank 1 waited for the first (sent at 100) until 10100: the one receive
  // that observed a transfer, slowed on the way (a descheduled receiver). Rank 0 posted its receive
  // of the second (sent at 10200) at 10300, after the data were on their way, and had them at
  // 10400: that transfer took at most 200 ns, so the network moves at least 1 MiB / 200 ns.
  constexpr std::uint64_t kMiB = 1 << 20;
  const ActivityGraph g = graph({{{0, SegmentKind::startup},
                                  {100},
                                  {110, SegmentKind::mpi},
                                  {10300},
                                  {10400, SegmentKind::mpi},
                                  {10500}},
                                 {{0, SegmentKind::startup},
                                  {50},
                                  {10100, SegmentKind::mpi},
                                  {10200},
                                  {10210, SegmentKind::mpi},
                                  {10500}}},
                                {{1, 8, EdgeKind::message, 1, kMiB}, {9, 4, EdgeKind::message, 1, kMiB}}, {},
                                {0, 1, 2, 6, 7, 8, 9, 10, 3, 4, 5, 11});
  const NetworkModel fitted = fit_network(g);
  EXPECT_EQ(fitted.observations, 1u) << "only the first receive waited for its message";
  EXPECT_GE(fitted.bytes_per_ns, kMiB / 200.0 * (1 - 1e-12))
      << "the second message arrived within 200 ns: a network fitted on the slowed first alone ("
      << kMiB / 10000.0 << " bytes/ns) is slower than the run's";
  EXPECT_NEAR(replay(g, fitted, {}).length(), 10500, 1e-6)
      << "the replay of the unchanged run on the fitted network gives its time back";
}

TEST(Replay, BalancingAnIntervalGivesEveryInstanceTheMeanAndABarrierWaitsForTheLast) {
  // Interval frame 1 ("A"): rank 0 works 100 in it, rank 1 300; then both meet at a barrier: rank 0's
  // begins at node 3 (100) and ends at node 4, rank 1's at nodes 7 (300) and 8 (301), through hub 9.
  ActivityGraph g =
      graph({{{0, SegmentKind::startup}, {0}, {100, SegmentKind::useful, 1}, {100}, {300, SegmentKind::mpi}},
             {{0, SegmentKind::startup}, {0}, {300, SegmentKind::useful, 1}, {301, SegmentKind::mpi}}},
            {{3, 9, EdgeKind::collective, 1, 0},
             {7, 9, EdgeKind::collective, 1, 0},
             {9, 4, EdgeKind::collective, 1, 0},
             {9, 8, EdgeKind::collective, 1, 0}},
            {300}, {0, 1, 2, 3, 5, 6, 7, 9, 4, 8});
  g.intervals.push_back({"A", 1, "a.c", 1});
  g.stacks.push_back({0, 0, 1});
  ReplayChanges balance;
  balance.network = ReplayChanges::Network::measured;
  EXPECT_NEAR(replay(g, NetworkModel{}, balance).length(), 301, 1e-9) << "unchanged";
  balance.balance = {"A"};
  EXPECT_NEAR(replay(g, NetworkModel{}, balance).length(), 201, 1e-9)
      << "each works 200, the barrier costs 1";
  ReplayChanges faster;
  faster.network = ReplayChanges::Network::measured;
  faster.scale = {{"A", 3.0}};
  EXPECT_NEAR(replay(g, NetworkModel{}, faster).length(), 101, 1e-9) << "rank 1's 300 becomes 100";
}

// The critical path of a graph whose stack frame 1 is interval A and frame 2 interval B, as measured.
CriticalPath path_through_a_and_b(ActivityGraph& g) {
  g.intervals = {{"A", 1, "a.c", 1}, {"B", 1, "b.c", 1}};
  g.stacks.push_back({0, 0, 1});
  g.stacks.push_back({0, 1, 1});
  ReplayChanges measured;
  measured.network = ReplayChanges::Network::measured;
  return critical_path(g, replay(g, NetworkModel{}, measured, ReplayDetail::path));
}

TEST(CriticalPath, ItsComputationIsSplitByWhatTheOthersDidMeanwhileAndAnIntervalOffThePathKeepsItsTotal) {
  // Rank 0 waits 0..100, then computes 100..300 in interval A: the path. Rank 1 computes 0..200 in B,
  // rank 2 50..250 in B. During A the others compute 100 + 150 of the 2 x 200 they could have:
  // 62.5 % of the path's computation overlaps their work, the rest is serial.
  ActivityGraph g =
      graph({{{0, SegmentKind::startup}, {100, SegmentKind::mpi}, {300, SegmentKind::useful, 1}},
             {{0, SegmentKind::startup}, {200, SegmentKind::useful, 2}, {250, SegmentKind::mpi}},
             {{0, SegmentKind::startup}, {50, SegmentKind::mpi}, {250, SegmentKind::useful, 2}}},
            {});
  const CriticalPath path = path_through_a_and_b(g);
  EXPECT_DOUBLE_EQ(path.length_ns, 300);
  EXPECT_DOUBLE_EQ(path.computation_ns, 200);
  EXPECT_NEAR(path.while_others_work_ns, 125, 1e-9)
      << "the others computed 250 of the 400 location-ns beside A's 200 on the path";
  EXPECT_NEAR(path.while_others_wait_ns, 75, 1e-9);
  ASSERT_EQ(path.intervals.size(), 2u) << "every interval of the run, on the path or not";
  EXPECT_EQ(path.intervals[0].interval.name, "A");
  EXPECT_DOUBLE_EQ(path.intervals[0].total_ns, 200);
  EXPECT_EQ(path.intervals[1].interval.name, "B");
  EXPECT_DOUBLE_EQ(path.intervals[1].time_ns, 0) << "B is hidden behind rank 0's A";
  EXPECT_DOUBLE_EQ(path.intervals[1].total_ns, 400) << "B's 200 on rank 1 and 200 on rank 2";
  EXPECT_FALSE(path.intervals[0].off_path) << "A is the whole path's computation";
  EXPECT_TRUE(path.intervals[1].off_path)
      << "B works 400 (more than the path's 300) with none of it on the path: making it faster gains nothing";
}

TEST(CriticalPath, AStartUpNoDependencyExplainsLeavesNoIntervalOffThePath) {
  // Thread 0 computes 0..100 in B and ends; thread 1's first event is at 100 (it was created then, by
  // code the trace does not link) and it computes 100..300 in A. The path is thread 1's start-up, then
  // A: B has none of it, yet B may be what held thread 1 back.
  ActivityGraph g = graph({{{0, SegmentKind::startup}, {100, SegmentKind::useful, 2}},
                           {{100, SegmentKind::startup}, {300, SegmentKind::useful, 1}}},
                          {});
  const CriticalPath path = path_through_a_and_b(g);
  EXPECT_DOUBLE_EQ(path.length_ns, 300);
  EXPECT_DOUBLE_EQ(path.startup_ns, 100) << "thread 1's time before its first event";
  EXPECT_TRUE(path.startup_unexplained);
  ASSERT_EQ(path.intervals.size(), 2u);
  EXPECT_EQ(path.intervals[1].interval.name, "B");
  EXPECT_DOUBLE_EQ(path.intervals[1].time_ns, 0);
  EXPECT_FALSE(path.intervals[1].off_path)
      << "B works a third of the path before thread 1 begins: the trace cannot tell that it did not hold "
         "thread 1 back, so it must not say that making B faster gains nothing";
}

TEST(CriticalPath, OthersWorkIsCountedForEachPieceWalkedBackAndForALocationWhoseComputationsOverlap) {
  // Rank 0 computes 0..100 and 150..300 (the path, walked back: the later piece first). Rank 1's
  // clock left its computations overlapping, 0..120 and 60..200 (a node earlier than the one before
  // it); rank 2 computes 50..250. Beside 150..300 the others computed 50 + 100 of 2 x 150: half; beside
  // 0..100, 100 + 40 + 50 of 2 x 100: 95 %.
  ActivityGraph g =
      graph({{{0, SegmentKind::startup},
              {100, SegmentKind::useful, 1},
              {150, SegmentKind::mpi},
              {300, SegmentKind::useful, 1}},
             {{0, SegmentKind::startup},
              {120, SegmentKind::useful, 2},
              {60, SegmentKind::mpi},
              {200, SegmentKind::useful, 2}},
             {{0, SegmentKind::startup}, {50, SegmentKind::mpi}, {250, SegmentKind::useful, 2}}},
            {});
  const CriticalPath path = path_through_a_and_b(g);
  EXPECT_DOUBLE_EQ(path.length_ns, 300);
  EXPECT_DOUBLE_EQ(path.computation_ns, 250) << "rank 0's two computations";
  EXPECT_NEAR(path.while_others_work_ns, 0.5 * 150 + 0.95 * 100, 1e-9)
      << "each piece against what the others computed during it, rank 1's overlapping computations both "
         "counted";
  EXPECT_NEAR(path.while_others_wait_ns, 0.5 * 150 + 0.05 * 100, 1e-9);
}

TEST(CriticalPath, FollowedThroughTheGraphsOwnTimesItIsThePathOfAReplayAsMeasured) {
  // A message from rank 0 (sent at 100) ends rank 1's receive at 150; rank 1 then computes to 400.
  ActivityGraph g = graph({{{0, SegmentKind::startup}, {100}, {110, SegmentKind::mpi}, {200}},
                           {{0, SegmentKind::startup}, {50}, {150, SegmentKind::mpi}, {400}}},
                          {{1, 6, EdgeKind::message, 1, 8}});
  ReplayChanges measured;
  measured.network = ReplayChanges::Network::measured;
  const CriticalPath replayed = critical_path(g, replay(g, NetworkModel{}, measured, ReplayDetail::path));
  const CriticalPath own = critical_path(g);
  EXPECT_DOUBLE_EQ(own.length_ns, replayed.length_ns);
  EXPECT_DOUBLE_EQ(own.length_ns, 400);
  EXPECT_EQ(own.location_changes, replayed.location_changes);
  EXPECT_EQ(own.location_changes, 1u) << "from rank 0's send to rank 1's receive";
  ASSERT_EQ(own.activities.size(), replayed.activities.size());
  for (std::size_t a = 0; a < own.activities.size(); ++a) {
    EXPECT_EQ(own.activities[a].name, replayed.activities[a].name);
    EXPECT_DOUBLE_EQ(own.activities[a].time_ns, replayed.activities[a].time_ns) << own.activities[a].name;
  }
}

TEST(CriticalPath, ItsPiecesAreTheMeasuredSpansItWalksMergedPerLocation) {
  // Rank 0 works 0..100 and sends; rank 1's receive ends at 102 (2 after the send began), then it
  // works to 202: the path is rank 0's 0..100, then rank 1's 100..202 (the receive's end and the work
  // touch: one piece). Start-up is not a piece.
  const ActivityGraph g = graph({{{0, SegmentKind::startup}, {100}, {101, SegmentKind::mpi}},
                                 {{0, SegmentKind::startup}, {0}, {102, SegmentKind::mpi}, {202}}},
                                {{1, 5, EdgeKind::message, 1, 8}});
  ReplayChanges measured;
  measured.network = ReplayChanges::Network::measured;
  const CriticalPath path = critical_path(g, replay(g, NetworkModel{}, measured, ReplayDetail::path));
  ASSERT_EQ(path.pieces.size(), 2u);
  EXPECT_EQ(path.pieces[0].rank, 0);
  EXPECT_DOUBLE_EQ(path.pieces[0].begin_ns, 0);
  EXPECT_DOUBLE_EQ(path.pieces[0].end_ns, 100);
  EXPECT_EQ(path.pieces[1].rank, 1);
  EXPECT_DOUBLE_EQ(path.pieces[1].begin_ns, 100);
  EXPECT_DOUBLE_EQ(path.pieces[1].end_ns, 202);
}

}  // namespace
}  // namespace parperf::analysis
