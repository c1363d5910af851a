// The activity graph analysed by parts (graph_part.hpp, part_sweep.hpp), as the processes of
// `parperf report --np K` analyse it: each part holds a block of ranks and walks them while the
// others walk theirs, exchanging only the times their nodes depend on. What every part computes must
// be what the analysis of the whole graph computes for those nodes, to the bit, for any number of
// parts: more parts than ranks, one part, and the cuts in between. The parts run on threads
// (thread_part_exchange.hpp): labelled tsan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/delay_costs.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/graph_part_build.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/part_matching.hpp"
#include "analysis/trace/part_order.hpp"
#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/replay.hpp"
#include "unit/analysis_graph_parts_runs.hpp"
#include "unit/analysis_trace_run_builder.hpp"
#include "unit/thread_part_exchange.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using format::TraceEventKind;
using test::at;
using test::chain_run;
using test::rich_run;
using test::TraceRunBuilder;

// The whole graph, repaired, as analyse_traces makes it.
struct Whole {
  TraceRun run;  // (its profiles are the builder's, which must outlive it)
  ActivityGraph graph;
  NetworkModel fitted;
};
Whole whole_graph(const TraceRun& run) {
  Whole w{run, build_activity_graph(run, match_communication(run)), {}};
  repair_clock_condition(w.graph);
  w.fitted = fit_network(w.graph);
  return w;
}

// The graph cut into `parts` parts, as a K-process analysis holds it.
std::vector<GraphPart> cut_into(const ActivityGraph& g, const TraceRun& run, std::uint32_t parts) {
  const GraphPartition partition = partition_locations(g, run, partition_ranks(run, parts));
  std::vector<GraphPart> cut;
  for (std::uint32_t p = 0; p < parts; ++p) cut.push_back(cut_graph_part(g, partition, p));
  return cut;
}

std::string describe(const ReplayChanges& c) {
  std::string s = c.network == ReplayChanges::Network::measured ? "as measured"
                  : c.network == ReplayChanges::Network::fitted ? "on the fitted network"
                  : c.network == ReplayChanges::Network::ideal  ? "on an ideal network"
                                                                : "on a slow network";
  if (c.ideal_openmp) s += ", OpenMP free";
  for (const std::string& name : c.balance) s += ", '" + name + "' balanced";
  for (const auto& [name, f] : c.scale) s += ", '" + name + "' " + std::to_string(f) + " times faster";
  return s;
}

std::vector<ReplayChanges> every_kind_of_change() {
  using Network = ReplayChanges::Network;
  std::vector<ReplayChanges> all(6);
  all[0].network = Network::measured;
  all[1].network = Network::fitted;
  all[2].network = Network::ideal;
  all[2].ideal_openmp = true;
  all[3].network = Network::model;
  all[3].model = {.latency_ns = 2e5, .bytes_per_ns = 0.05};
  all[4].balance = {"compute"};
  all[5].scale = {{"compute", 4.0}};
  return all;
}

// Replays the graph cut into `parts` parts, each on a thread, and checks every part's times (its
// nodes', its hubs' and its ghosts') and what the path follows against the whole graph's replay.
void expect_parts_replay_as_the_whole(const Whole& w, std::uint32_t parts, const ReplayChanges& changes) {
  const ActivityGraph& g = w.graph;
  const ReplayResult whole = replay(g, w.fitted, changes, ReplayDetail::path);
  const std::vector<GraphPart> cut = cut_into(g, w.run, parts);
  std::vector<ReplayResult> results(parts);
  test::ThreadExchanges exchanges(parts);
  exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
    results[p] = replay_part(cut[p], w.fitted, changes, exchange, ReplayDetail::path);
  });
  const std::string what = describe(changes) + " in " + std::to_string(parts) + " parts";
  std::uint64_t checked = 0;
  for (std::uint32_t p = 0; p < parts; ++p) {
    const GraphPart& part = cut[p];
    const ReplayResult& r = results[p];
    EXPECT_EQ(r.end_ns, whole.end_ns) << what << ": part " << p << " ends the run at another time";
    EXPECT_EQ(r.last, whole.last) << what << ": part " << p << " names another node as the run's last";
    for (std::uint32_t k = 0; k < part.graph.nodes(); ++k) {
      const std::uint32_t n = part.global(k);
      ASSERT_EQ(r.time[k], whole.time[n])
          << what << ": part " << p << "'s node " << k << " (the run's " << n
          << (part.is_ghost(k) ? ", a ghost" : "") << ") replayed at another time";
      ++checked;
      if (part.is_ghost(k)) continue;
      EXPECT_EQ(r.cost[k], whole.cost[n]) << what << ": the run's node " << n << " costs another time";
      // What bound it: the previous node, the start, or the same edge (its place among the node's).
      const std::int32_t bound = r.bound_by[k], whole_bound = whole.bound_by[n];
      if (bound < 0 || whole_bound < 0) {
        EXPECT_EQ(bound, whole_bound) << what << ": the run's node " << n << " bound by another";
      } else {
        EXPECT_EQ(static_cast<std::uint32_t>(bound) - *part.graph.in_edges(k).begin(),
                  static_cast<std::uint32_t>(whole_bound) - *g.in_edges(n).begin())
            << what << ": the run's node " << n << " bound by another edge";
      }
      const auto in = part.graph.in_edges(k);
      const auto whole_in = g.in_edges(n);
      ASSERT_EQ(in.size(), whole_in.size()) << "the run's node " << n << " has other edges in its part";
      for (std::uint32_t i = 0; i < in.size(); ++i)
        EXPECT_EQ(r.transfer[in[i]], whole.transfer[whole_in[i]]) << what << ": an edge into " << n;
    }
  }
  EXPECT_GE(checked, g.nodes()) << "every node is some part's";
}

TEST(GraphParts, EachNodeIsInOnePartAndEveryEdgeCutIsAGhostOfTheOtherPart) {
  TraceRunBuilder b;
  const Whole w = whole_graph(rich_run(b, 5));
  const ActivityGraph& g = w.graph;
  ASSERT_GT(g.linked.messages, 0u);
  ASSERT_GT(g.linked.collectives, 0u);
  ASSERT_GT(g.linked.openmp_barriers, 0u);
  ASSERT_GT(g.linked.lock_handovers, 0u);
  ASSERT_GT(g.linked.window_lock_handovers, 0u);
  ASSERT_GT(g.unlinked.window_waits, 0u) << "some window lock granted before its previous holder released it";
  ASSERT_GT(g.linked.shmem_lock_handovers, 0u);
  ASSERT_GT(g.linked.window_epoch_links, 0u);
  for (std::uint32_t parts : {1u, 2u, 3u, 5u, 8u}) {
    const GraphPartition partition = partition_locations(g, w.run, partition_ranks(w.run, parts));
    std::vector<std::uint32_t> holders(g.nodes(), 0);
    std::uint64_t ghosts = 0, edges = 0;
    for (std::uint32_t p = 0; p < parts; ++p) {
      const GraphPart part = cut_graph_part(g, partition, p);
      for (std::uint32_t k = 0; k < part.graph.nodes(); ++k) {
        if (part.is_ghost(k)) {
          ++ghosts;
          EXPECT_NE(part.ghost_owner[k - part.first_ghost], p) << "a part's ghost of its own node";
          continue;
        }
        ++holders[part.global(k)];
        EXPECT_EQ(part.local(part.global(k)), k);
        EXPECT_EQ(part.graph.time[k], g.time[part.global(k)]);
      }
      edges += part.graph.edges.size();
      EXPECT_EQ(part.graph.order.size(), part.graph.nodes())
          << "the part's order holds each of its nodes once";
    }
    for (std::uint32_t n = 0; n < g.nodes(); ++n)
      ASSERT_EQ(holders[n], 1u) << "the run's node " << n << " in " << parts << " parts";
    EXPECT_EQ(edges, g.edges.size()) << "each edge is in the part of the node it leads into";
    if (parts == 1) {
      EXPECT_EQ(ghosts, 0u);
    } else {
      EXPECT_GT(ghosts, 0u) << "a ring of messages crosses every cut";
    }
  }
}

TEST(GraphParts, ReplayedByPartsEveryNodeHasTheWholeGraphsReplayedTimeWhateverTheChange) {
  TraceRunBuilder b;
  const Whole w = whole_graph(rich_run(b, 5));
  for (const ReplayChanges& changes : every_kind_of_change())
    for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) expect_parts_replay_as_the_whole(w, parts, changes);
}

TEST(GraphParts, RepairedByPartsEveryNodeHasTheWholeGraphsRepairedTimeAndTheFiguresAreTheRuns) {
  TraceRunBuilder b;
  const TraceRun run = rich_run(b, 5);
  const ActivityGraph measured = build_activity_graph(run, match_communication(run));
  ActivityGraph g = measured;
  const ClockRepair whole = repair_clock_condition(g);
  ASSERT_GT(whole.violations, 0u) << "the constructed run's odd ranks receive before their partners send";
  ASSERT_GT(whole.moved, 0u);
  for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
    std::vector<GraphPart> cut = cut_into(measured, run, parts);
    std::vector<ClockRepair> repairs(parts);
    test::ThreadExchanges exchanges(parts);
    exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
      repairs[p] = repair_clock_condition(cut[p], exchange);
    });
    const std::string in = " in " + std::to_string(parts) + " parts";
    for (std::uint32_t p = 0; p < parts; ++p) {
      const GraphPart& part = cut[p];
      const ClockRepair& r = repairs[p];
      EXPECT_EQ(r.edges, whole.edges) << "dependencies checked" << in;
      EXPECT_EQ(r.violations, whole.violations) << "dependencies backwards" << in;
      EXPECT_EQ(r.moved, whole.moved) << "nodes moved" << in;
      EXPECT_EQ(r.largest_shift_ns, whole.largest_shift_ns) << "the largest shift" << in;
      EXPECT_EQ(r.remaining, 0u) << "dependencies still backwards" << in;
      EXPECT_EQ(part.graph.end_ns, g.end_ns) << "the run's end" << in;
      for (std::uint32_t k = 0; k < part.graph.nodes(); ++k)
        ASSERT_EQ(part.graph.time[k], g.time[part.global(k)])
            << "the run's node " << part.global(k) << (part.is_ghost(k) ? " (a ghost)" : "")
            << " repaired to another time" << in;
      ASSERT_EQ(r.anchors.size(), part.graph.locations.size());
      for (std::uint32_t l = 0; l < r.anchors.size(); ++l) {
        const LocationAnchors& mine = r.anchors[l];
        const LocationAnchors& theirs = whole.anchors[part.first_location + l];
        ASSERT_EQ(mine.size(), theirs.size())
            << "location " << part.first_location + l << "'s moved nodes" << in;
        for (std::size_t i = 0; i < mine.size(); ++i) {
          EXPECT_EQ(mine.measured(i), theirs.measured(i));
          EXPECT_EQ(mine.repaired(i), theirs.repaired(i));
        }
      }
    }
  }
}

// The percentiles of the network's fit over every part's observations: the k-th smallest of all,
// exact, with negatives, zeros of both signs, repeats, infinities and parts without any.
TEST(GraphParts, TheKthSmallestOfEveryPartsValuesIsTheKthOfAllSorted) {
  std::mt19937_64 random(7);
  std::vector<double> all;
  for (int i = 0; i < 300; ++i)
    all.push_back(
        std::ldexp(static_cast<double>(random() % 2001) - 1000.0, -static_cast<int>(random() % 40)));
  for (const double v : {0.0, -0.0, 5.0, 5.0, 5.0, std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity(), 1e-300, -1e300})
    all.push_back(v);
  constexpr std::uint32_t kParts = 4;
  std::vector<std::vector<double>> mine(kParts);
  for (std::size_t i = 0; i < all.size(); ++i) mine[i % 3].push_back(all[i]);  // part 3 holds none
  std::vector<double> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  for (const std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{30}, std::uint64_t{154},
                                std::uint64_t{sorted.size() - 2}, std::uint64_t{sorted.size() - 1}}) {
    std::vector<double> found(kParts);
    test::ThreadExchanges exchanges(kParts);
    exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
      found[p] = kth_smallest_of_parts(exchange, mine[p], k);
    });
    for (std::uint32_t p = 0; p < kParts; ++p)
      EXPECT_EQ(found[p], sorted[k]) << "the " << k << "-th smallest of " << sorted.size()
                                     << " values, on part " << p;
  }
}

TEST(GraphParts, TheNetworkFittedByPartsIsTheWholeGraphs) {
  TraceRunBuilder b;
  const Whole w = whole_graph(rich_run(b, 5));
  ASSERT_GT(w.fitted.observations, w.fitted.large) << "small messages to fit the latency on";
  ASSERT_GT(w.fitted.large, 0u) << "large messages to fit the bandwidth on";
  for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
    const std::vector<GraphPart> cut = cut_into(w.graph, w.run, parts);
    std::vector<NetworkModel> fits(parts);
    test::ThreadExchanges exchanges(parts);
    exchanges.run([&](std::uint32_t p, PartExchange& exchange) { fits[p] = fit_network(cut[p], exchange); });
    for (std::uint32_t p = 0; p < parts; ++p) {
      const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
      EXPECT_EQ(fits[p].latency_ns, w.fitted.latency_ns) << where;
      EXPECT_EQ(fits[p].bytes_per_ns, w.fitted.bytes_per_ns) << where;
      EXPECT_EQ(fits[p].observations, w.fitted.observations) << where;
      EXPECT_EQ(fits[p].large, w.fitted.large) << where;
    }
  }
}

TEST(GraphParts, ThePopFactorsOfPartsAreTheWholeGraphsRunAndPhaseByPhase) {
  TraceRunBuilder b;
  const Whole w = whole_graph(rich_run(b, 5));
  const Pop whole = pop_factors(w.graph, w.fitted);
  ASSERT_EQ(whole.phases.size(), 2u) << "recording switched off once: two phases";
  ASSERT_TRUE(whole.mpi && whole.openmp) << "a hybrid run";
  ASSERT_LT(whole.overall.load_balance, 1.0) << "uneven work";
  for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
    const std::vector<GraphPart> cut = cut_into(w.graph, w.run, parts);
    std::vector<Pop> pops(parts);
    test::ThreadExchanges exchanges(parts);
    exchanges.run(
        [&](std::uint32_t p, PartExchange& exchange) { pops[p] = pop_factors(cut[p], w.fitted, exchange); });
    for (std::uint32_t p = 0; p < parts; ++p) {
      const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
      EXPECT_EQ(pops[p].overall.load_balance, whole.overall.load_balance) << where;
      EXPECT_EQ(pops[p].overall.serialisation_efficiency, whole.overall.serialisation_efficiency) << where;
      EXPECT_EQ(pops[p].ideal_time_ns, whole.ideal_time_ns) << where;
      ASSERT_EQ(pops[p].phases.size(), whole.phases.size()) << where;
      for (std::size_t i = 0; i < whole.phases.size(); ++i) {
        EXPECT_EQ(pops[p].phases[i].ranks, whole.phases[i].ranks) << where << ", phase " << i + 1;
        EXPECT_EQ(pops[p].phases[i].begin_ns, whole.phases[i].begin_ns) << where << ", phase " << i + 1;
        EXPECT_EQ(pops[p].phases[i].ideal_time_ns, whole.phases[i].ideal_time_ns)
            << where << ", phase " << i + 1;
      }
      EXPECT_TRUE(pops[p] == whole) << where << ": another figure differs";
    }
  }
}

void expect_same_path(const CriticalPath& parts, const CriticalPath& whole, const std::string& where) {
  EXPECT_EQ(parts.length_ns, whole.length_ns) << where;
  EXPECT_EQ(parts.location_changes, whole.location_changes) << where;
  EXPECT_EQ(parts.computation_ns, whole.computation_ns) << where;
  EXPECT_EQ(parts.while_others_work_ns, whole.while_others_work_ns) << where << ": time while others work";
  EXPECT_EQ(parts.while_others_wait_ns, whole.while_others_wait_ns) << where << ": time while others wait";
  ASSERT_EQ(parts.intervals.size(), whole.intervals.size()) << where;
  for (std::size_t i = 0; i < whole.intervals.size(); ++i) {
    EXPECT_EQ(parts.intervals[i].interval.name, whole.intervals[i].interval.name)
        << where << ", interval " << i;
    EXPECT_EQ(parts.intervals[i].time_ns, whole.intervals[i].time_ns)
        << where << ", " << whole.intervals[i].interval.name;
    EXPECT_EQ(parts.intervals[i].total_ns, whole.intervals[i].total_ns)
        << where << ", " << whole.intervals[i].interval.name;
    EXPECT_EQ(parts.intervals[i].off_path, whole.intervals[i].off_path) << where;
  }
  ASSERT_EQ(parts.locations.size(), whole.locations.size()) << where;
  for (std::size_t i = 0; i < whole.locations.size(); ++i) {
    EXPECT_EQ(parts.locations[i].rank, whole.locations[i].rank) << where << ", location row " << i;
    EXPECT_EQ(parts.locations[i].thread, whole.locations[i].thread) << where << ", location row " << i;
    EXPECT_EQ(parts.locations[i].time_ns, whole.locations[i].time_ns) << where << ", location row " << i;
  }
  ASSERT_EQ(parts.activities.size(), whole.activities.size()) << where;
  for (std::size_t i = 0; i < whole.activities.size(); ++i) {
    EXPECT_EQ(parts.activities[i].name, whole.activities[i].name) << where;
    EXPECT_EQ(parts.activities[i].time_ns, whole.activities[i].time_ns)
        << where << ", " << whole.activities[i].name;
  }
  ASSERT_EQ(parts.pieces.size(), whole.pieces.size()) << where;
  for (std::size_t i = 0; i < whole.pieces.size(); ++i) {
    EXPECT_EQ(parts.pieces[i].rank, whole.pieces[i].rank) << where;
    EXPECT_EQ(parts.pieces[i].begin_ns, whole.pieces[i].begin_ns) << where << ", piece " << i;
    EXPECT_EQ(parts.pieces[i].end_ns, whole.pieces[i].end_ns) << where << ", piece " << i;
  }
}

TEST(GraphParts, TheCriticalPathFollowedByPartsIsTheWholeGraphsOnEveryPart) {
  TraceRunBuilder rich, chain;
  const Whole hybrid = whole_graph(rich_run(rich, 5)), relay = whole_graph(chain_run(chain, 6));
  ASSERT_GE(critical_path(relay.graph).location_changes, 5u) << "the chain's path runs through every rank";
  for (const Whole* w : {&hybrid, &relay}) {
    const CriticalPath whole = critical_path(w->graph);
    for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
      const std::vector<GraphPart> cut = cut_into(w->graph, w->run, parts);
      std::vector<CriticalPath> paths(parts);
      test::ThreadExchanges exchanges(parts);
      exchanges.run(
          [&](std::uint32_t p, PartExchange& exchange) { paths[p] = critical_path(cut[p], exchange); });
      for (std::uint32_t p = 0; p < parts; ++p)
        expect_same_path(paths[p], whole, "part " + std::to_string(p) + " of " + std::to_string(parts));
    }
  }
}

TEST(GraphParts, TheDelayCostsWalkedByPartsAreTheWholeGraphsOnEveryPart) {
  TraceRunBuilder rich, chain;
  for (const Whole& w : {whole_graph(rich_run(rich, 5)), whole_graph(chain_run(chain, 6))})
    for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
      const DelayCosts whole = delay_costs(w.graph);
      ASSERT_GT(whole.charged_ns, 0.0);
      ASSERT_GT(whole.causes.size(), 2u);
      const std::vector<GraphPart> cut = cut_into(w.graph, w.run, parts);
      std::vector<DelayCosts> costs(parts);
      test::ThreadExchanges exchanges(parts);
      exchanges.run(
          [&](std::uint32_t p, PartExchange& exchange) { costs[p] = delay_costs(cut[p], exchange); });
      for (std::uint32_t p = 0; p < parts; ++p) {
        const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
        EXPECT_EQ(costs[p].waiting_ns, whole.waiting_ns) << where << ": the run's waiting";
        EXPECT_EQ(costs[p].charged_ns, whole.charged_ns) << where << ": the waiting charged to computation";
        ASSERT_EQ(costs[p].causes.size(), whole.causes.size()) << where;
        for (std::size_t i = 0; i < whole.causes.size(); ++i) {
          const DelayCause& mine = costs[p].causes[i];
          const DelayCause& theirs = whole.causes[i];
          const std::string cause = where + ", rank " + std::to_string(theirs.rank) + " thread " +
                                    std::to_string(theirs.thread) + " '" + theirs.interval.name + "'";
          EXPECT_EQ(mine.location, theirs.location) << cause;
          EXPECT_EQ(mine.rank, theirs.rank) << cause;
          EXPECT_EQ(mine.thread, theirs.thread) << cause;
          EXPECT_EQ(mine.interval.name, theirs.interval.name) << cause;
          EXPECT_EQ(mine.delay_ns, theirs.delay_ns) << cause;
          EXPECT_EQ(mine.waiting, theirs.waiting) << cause;
          EXPECT_EQ(mine.waits, theirs.waits) << cause;
        }
      }
    }
}

TEST(GraphParts, AWaitInAChainIsChargedToEveryRankBeforeIt) {
  TraceRunBuilder b;
  const Whole w = whole_graph(chain_run(b, 6));
  const DelayCosts whole = delay_costs(w.graph);
  double rank0 = 0;
  for (const DelayCause& c : whole.causes)
    if (c.rank == 0) rank0 += c.delay_ns;
  // Rank r >= 1 waits 10 + (r - 1) ms (+ 0.1 r - 0.05 of slack) a round: rank 0's 10 ms reach all five.
  EXPECT_NEAR(rank0 / test::kMs, 3 * 5 * 10.0, 3 * 5 * 0.5)
      << "rank 0's 10 ms of 'stage' delay every rank after it";
}

// Each part reads its own ranks' traces only, into the whole graph's nodes, numbered as the whole
// graph's; the names every part met, as the run's.
TEST(GraphParts, ReadFromItsOwnRanksEachPartHasTheWholeGraphsNodesAndNames) {
  TraceRunBuilder rich, chain;
  const TraceRun runs[] = {rich_run(rich, 5), chain_run(chain, 6)};
  for (const TraceRun& run : runs) {
    const ActivityGraph whole = build_activity_graph(run, match_communication(run));
    ASSERT_GT(whole.intervals.size(), 0u);
    for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
      const RankPartition ranks = partition_ranks(run, parts);
      const GraphPartition locations = partition_locations(whole, run, ranks);
      std::vector<std::optional<GraphPartDraft>> drafts(parts);
      test::ThreadExchanges exchanges(parts);
      exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
        drafts[p].emplace(read_graph_part(run, ranks, p, exchange));
      });
      for (std::uint32_t p = 0; p < parts; ++p) {
        const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
        const GraphPart& part = drafts[p]->part;
        const ActivityGraph& g = drafts[p]->draft.unlinked();
        EXPECT_EQ(part.first_location, locations.first_location[p]) << where;
        EXPECT_EQ(part.run_first_hub, whole.first_hub()) << where;
        ASSERT_EQ(g.locations.size(), locations.first_location[p + 1] - locations.first_location[p]) << where;
        for (std::uint32_t l = 0; l < g.locations.size(); ++l) {
          const GraphLocation& theirs = whole.locations[part.first_location + l];
          EXPECT_EQ(g.locations[l].rank, theirs.rank) << where;
          EXPECT_EQ(g.locations[l].thread, theirs.thread) << where;
          EXPECT_EQ(g.locations[l].worker, theirs.worker) << where;
          EXPECT_EQ(part.first_node + g.locations[l].first, theirs.first) << where << ", location " << l;
          EXPECT_EQ(part.first_node + g.locations[l].end, theirs.end) << where << ", location " << l;
        }
        for (std::uint32_t k = 0; k < g.first_hub(); ++k) {
          const std::uint32_t n = part.first_node + k;
          ASSERT_EQ(g.time[k], whole.time[n]) << where << ": the run's node " << n;
          ASSERT_EQ(g.segment[k], whole.segment[n]) << where << ": the run's node " << n;
          ASSERT_EQ(g.stack[k], whole.stack[n]) << where << ": the run's node " << n << "'s interval stack";
          ASSERT_EQ(g.operation[k], whole.operation[n])
              << where << ": the run's node " << n << "'s operation";
        }
        ASSERT_EQ(g.intervals.size(), whole.intervals.size()) << where;
        for (std::size_t i = 0; i < g.intervals.size(); ++i)
          EXPECT_EQ(g.intervals[i].name, whole.intervals[i].name) << where;
        EXPECT_EQ(g.operations, whole.operations) << where;
        ASSERT_EQ(g.stacks.size(), whole.stacks.size()) << where;
        for (std::size_t f = 0; f < g.stacks.size(); ++f) {
          EXPECT_EQ(g.stacks[f].parent, whole.stacks[f].parent) << where << ", stack " << f;
          EXPECT_EQ(g.stacks[f].interval, whole.stacks[f].interval) << where << ", stack " << f;
          EXPECT_EQ(g.stacks[f].depth, whole.stacks[f].depth) << where << ", stack " << f;
        }
        EXPECT_EQ(g.start_ns, whole.start_ns) << where;
        EXPECT_EQ(g.end_ns, whole.end_ns) << where;
        EXPECT_EQ(g.events, whole.events) << where;
        ASSERT_EQ(g.phases.size(), whole.phases.size()) << where;
        for (std::size_t i = 0; i < whole.phases.size(); ++i) {
          std::size_t mine = 0;
          for (const PhaseBounds& b : whole.phases[i].ranks) {
            const bool own = b.begin >= part.first_node && b.begin < part.first_node + g.first_hub();
            if (!own) continue;
            ASSERT_LT(mine, g.phases[i].ranks.size()) << where << ", phase " << i;
            EXPECT_EQ(g.phases[i].ranks[mine].rank, b.rank) << where;
            EXPECT_EQ(part.first_node + g.phases[i].ranks[mine].begin, b.begin) << where;
            EXPECT_EQ(part.first_node + g.phases[i].ranks[mine].end, b.end) << where;
            ++mine;
          }
          EXPECT_EQ(mine, g.phases[i].ranks.size()) << where << ", phase " << i;
        }
      }
    }
  }
}

// The parts' orders found by the parts themselves, each as its nodes were placed: every node once,
// after its dependencies, and orders the sweeps by parts walk without waiting for ever, to the whole
// graph's results.
TEST(GraphParts, OrderedByThePartsThemselvesThePartsSweepToTheWholeGraphsResults) {
  TraceRunBuilder rich, chain;
  const TraceRun runs[] = {rich_run(rich, 5), chain_run(chain, 6)};
  for (const TraceRun& run : runs) {
    const ActivityGraph measured = build_activity_graph(run, match_communication(run));
    const Whole w = whole_graph(run);  // repaired, its network fitted
    const ActivityGraph& repaired = w.graph;
    const NetworkModel& fitted = w.fitted;
    ReplayChanges ideal;
    ideal.network = ReplayChanges::Network::ideal;
    const ReplayResult whole = replay(repaired, fitted, ideal);
    for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
      std::vector<GraphPart> cut = cut_into(measured, run, parts);
      for (GraphPart& part : cut) part.graph.order.clear();
      std::vector<ReplayResult> replayed(parts);
      test::ThreadExchanges exchanges(parts);
      exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
        cut[p].graph.order = order_part(cut[p], exchange);
        repair_clock_condition(cut[p], exchange);
        replayed[p] = replay_part(cut[p], fitted, ideal, exchange);
      });
      for (std::uint32_t p = 0; p < parts; ++p) {
        const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
        const ActivityGraph& g = cut[p].graph;
        ASSERT_EQ(g.order.size(), g.nodes()) << where << ": every node (and ghost) in its order once";
        std::vector<std::uint8_t> seen(g.nodes(), 0);
        for (const std::uint32_t k : g.order) {
          ASSERT_FALSE(seen[k]) << where << ": node " << k << " twice in the order";
          for (const std::uint32_t e : g.in_edges(k))
            ASSERT_TRUE(g.edges[e].source == k || seen[g.edges[e].source])
                << where << ": node " << k << " before its source";
          ASSERT_TRUE(g.previous(k) == kNoNode || seen[g.previous(k)])
              << where << ": node " << k << " before the one before it";
          seen[k] = 1;
        }
        for (std::uint32_t k = 0; k < g.nodes(); ++k) {
          ASSERT_EQ(g.time[k], repaired.time[cut[p].global(k)])
              << where << ": the run's node " << cut[p].global(k) << " repaired";
          ASSERT_EQ(replayed[p].time[k], whole.time[cut[p].global(k)])
              << where << ": the run's node " << cut[p].global(k) << " replayed";
        }
      }
    }
  }
}

bool same_side(const CallSide& a, const CallSide& b) {
  return a.rank == b.rank && a.thread == b.thread && a.site == b.site && a.index == b.index &&
         a.start_ns == b.start_ns && a.end_ns == b.end_ns;
}

// Each part matches its ranks' calls with the other parts': it has every message, instance and
// transfer that touches its ranks, in the whole run's order, and the run's counts.
TEST(GraphParts, MatchedByPartsEachPartHasTheWholeRunsCommunicationOfItsRanks) {
  TraceRunBuilder b;
  const TraceRun run = rich_run(b, 5);
  const Communication whole = match_communication(run);
  ASSERT_GT(whole.messages.size(), 0u);
  ASSERT_GT(whole.collectives.size(), 0u);
  ASSERT_GT(whole.one_sided.size(), 0u);
  ASSERT_EQ(whole.unmatched_sends, 1u) << "rank 0's message nobody receives";
  ASSERT_EQ(whole.unmatched_receives, 1u) << "rank 2's receive nobody sends";
  for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
    const RankPartition ranks = partition_ranks(run, parts);
    std::vector<Communication> matched(parts);
    test::ThreadExchanges exchanges(parts);
    exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
      matched[p] = match_communication(run, ranks, p, exchange);
    });
    for (std::uint32_t p = 0; p < parts; ++p) {
      const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
      std::set<std::int64_t> own;
      for (std::size_t r = ranks.first_rank[p]; r < ranks.first_rank[p + 1]; ++r)
        own.insert(run.ranks[r].rank);
      const Communication& c = matched[p];
      EXPECT_EQ(c.unmatched_sends, whole.unmatched_sends) << where;
      EXPECT_EQ(c.unmatched_receives, whole.unmatched_receives) << where;
      EXPECT_EQ(c.incomplete_collectives, whole.incomplete_collectives) << where;
      std::vector<const Message*> mine;
      for (const Message& m : whole.messages)
        if (own.count(m.send.rank) || own.count(m.receive.rank)) mine.push_back(&m);
      ASSERT_EQ(c.messages.size(), mine.size()) << where << ": the messages of its ranks";
      std::size_t i = 0;
      for (const Message& m : c.messages) {
        const Message& theirs = *mine[i++];
        EXPECT_TRUE(same_side(m.send, theirs.send) && same_side(m.receive, theirs.receive))
            << where << ": message " << i << " of its ranks is another (or in another order)";
        EXPECT_EQ(m.bytes, theirs.bytes) << where;
        EXPECT_EQ(m.tag, theirs.tag) << where;
        EXPECT_EQ(m.send_kind, theirs.send_kind) << where;
        EXPECT_EQ(m.receive_kind, theirs.receive_kind) << where;
      }
      std::vector<const CollectiveInstance*> instances;
      for (const CollectiveInstance& x : whole.collectives)
        if (std::any_of(x.members.begin(), x.members.end(),
                        [&](const CallSide& m) { return own.count(m.rank) > 0; }))
          instances.push_back(&x);
      ASSERT_EQ(c.collectives.size(), instances.size()) << where << ": the instances of its ranks";
      for (std::size_t k = 0; k < instances.size(); ++k) {
        const CollectiveInstance& x = c.collectives[k];
        const CollectiveInstance& theirs = *instances[k];
        EXPECT_EQ(std::tie(x.members_hash, x.ordinal, x.sequence, x.kind, x.name, x.root, x.blocking),
                  std::tie(theirs.members_hash, theirs.ordinal, theirs.sequence, theirs.kind, theirs.name,
                           theirs.root, theirs.blocking))
            << where << ", instance " << k;
        ASSERT_EQ(x.members.size(), theirs.members.size()) << where;
        for (std::size_t m = 0; m < x.members.size(); ++m)
          EXPECT_TRUE(same_side(x.members[m], theirs.members[m]))
              << where << ", instance " << k << " member " << m;
      }
      std::vector<const OneSidedTransfer*> transfers;
      for (const OneSidedTransfer& t : whole.one_sided)
        if (own.count(t.origin.rank) || (t.put && t.target != t.origin.rank && own.count(t.target)))
          transfers.push_back(&t);
      ASSERT_EQ(c.one_sided.size(), transfers.size()) << where << ": the transfers of and into its ranks";
      for (std::size_t k = 0; k < transfers.size(); ++k) {
        EXPECT_TRUE(same_side(c.one_sided[k].origin, transfers[k]->origin)) << where << ", transfer " << k;
        EXPECT_EQ(c.one_sided[k].target, transfers[k]->target) << where;
        EXPECT_EQ(c.one_sided[k].bytes, transfers[k]->bytes) << where;
      }
    }
  }
}

// The whole analysis by parts from the traces: each part reads its ranks, matches their calls with
// the others', links its nodes with the other parts' (the run's hubs, its ghosts, who reads its
// nodes), orders them with the others; its part is the whole graph's part, edge for edge, and the
// repair and replays by parts give the whole graph's times.
TEST(GraphParts, LinkedFromItsOwnRanksEachPartIsTheWholeGraphsPart) {
  TraceRunBuilder rich, chain;
  const TraceRun runs[] = {rich_run(rich, 5), chain_run(chain, 6)};
  for (const TraceRun& run : runs) {
    const ActivityGraph whole = build_activity_graph(run, match_communication(run));
    const Whole w = whole_graph(run);  // repaired, its network fitted
    const ActivityGraph& repaired = w.graph;
    const NetworkModel& fitted = w.fitted;
    const ReplayResult replayed = replay(repaired, fitted, {});
    for (std::uint32_t parts : {1u, 2u, 3u, 5u, 7u}) {
      const RankPartition ranks = partition_ranks(run, parts);
      const GraphPartition locations = partition_locations(whole, run, ranks);
      std::vector<GraphPart> linked(parts);
      std::vector<ReplayResult> by_parts(parts);
      test::ThreadExchanges exchanges(parts);
      exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
        GraphPartDraft draft = read_graph_part(run, ranks, p, exchange);
        const Communication communication = match_communication(run, ranks, p, exchange);
        linked[p] = link_graph_part(std::move(draft), communication, run, ranks, exchange);
        repair_clock_condition(linked[p], exchange);
        by_parts[p] = replay_part(linked[p], fitted, {}, exchange);
      });
      for (std::uint32_t p = 0; p < parts; ++p) {
        const std::string where = "part " + std::to_string(p) + " of " + std::to_string(parts);
        const GraphPart cut = cut_graph_part(whole, locations, p);
        const GraphPart& part = linked[p];
        EXPECT_EQ(part.first_node, cut.first_node) << where;
        EXPECT_EQ(part.run_nodes, cut.run_nodes) << where << ": the run's nodes and hubs";
        EXPECT_EQ(part.global_hubs, cut.global_hubs) << where << ": its hubs' and ghosts' numbers in the run";
        EXPECT_EQ(part.first_ghost, cut.first_ghost) << where;
        EXPECT_EQ(part.ghost_owner, cut.ghost_owner) << where;
        EXPECT_EQ(part.readers, cut.readers) << where << ": the parts that read its nodes";
        EXPECT_EQ(part.readers_begin, cut.readers_begin) << where;
        EXPECT_TRUE(part.read_elsewhere == cut.read_elsewhere) << where;
        ASSERT_EQ(part.graph.nodes(), cut.graph.nodes()) << where;
        for (std::uint32_t k = 0; k < cut.first_ghost; ++k) {
          const auto in = part.graph.in_edges(k), theirs = cut.graph.in_edges(k);
          ASSERT_EQ(in.size(), theirs.size()) << where << ": the edges into the run's node " << cut.global(k);
          for (std::uint32_t i = 0; i < in.size(); ++i) {
            const GraphEdge& a = part.graph.edges[in[i]];
            const GraphEdge& b = cut.graph.edges[theirs[i]];
            EXPECT_EQ(part.global(a.source), cut.global(b.source))
                << where << ": an edge into " << cut.global(k);
            EXPECT_EQ(a.kind, b.kind) << where << ": an edge into " << cut.global(k);
            EXPECT_EQ(a.bytes, b.bytes) << where;
            EXPECT_EQ(a.hops, b.hops) << where;
          }
        }
        const auto counts = [](const ActivityGraph& g) {
          return std::tuple(g.linked.messages, g.linked.collectives, g.linked.openmp_barriers, g.linked.forks,
                            g.linked.lock_handovers, g.linked.task_creations, g.linked.task_waits,
                            g.linked.window_lock_handovers, g.unlinked.window_waits,
                            g.linked.shmem_lock_handovers, g.unlinked.shmem_locks, g.unlinked.sends,
                            g.unlinked.receives, g.unlinked.incomplete_collectives, g.unlinked.outside_window,
                            g.unlinked.nonblocking_collectives, g.linked.window_epoch_links);
        };
        EXPECT_EQ(counts(part.graph), counts(whole)) << where << ": the run's counts of what was linked";
        for (std::uint32_t k = 0; k < part.graph.nodes(); ++k) {
          ASSERT_EQ(part.graph.time[k], repaired.time[part.global(k)])
              << where << ": the run's node " << part.global(k) << " repaired";
          ASSERT_EQ(by_parts[p].time[k], replayed.time[part.global(k)])
              << where << ": the run's node " << part.global(k) << " replayed";
        }
      }
    }
  }
}

// Names met in another order by each part: the run's numbers are those of the reading in rank order.
TEST(GraphParts, TheRunsNamesAreEachPartsInPartOrder) {
  PartNames first, second;
  first.operations = {"", "MPI_Send"};
  first.intervals = {{"a", 1, "x.c", 1}, {"b", 1, "x.c", 2}};
  first.stacks = {{}, {0, 0, 1}, {1, 1, 2}};  // a, a>b
  second.operations = {"", "MPI_Recv", "MPI_Send"};
  second.intervals = {{"b", 1, "x.c", 2}, {"c", 1, "x.c", 3}, {"a", 1, "x.c", 1}};
  second.stacks = {{}, {0, 0, 1}, {0, 2, 1}, {2, 0, 2}, {3, 1, 3}};  // b, a, a>b, a>b>c
  std::vector<RunNumbers> numbers;
  const PartNames run = merge_part_names({first, second}, numbers, "run");
  ASSERT_EQ(run.intervals.size(), 3u);
  EXPECT_EQ(run.intervals[2].name, "c");
  EXPECT_EQ(numbers[1].intervals, (std::vector<std::uint32_t>{1, 2, 0}));
  EXPECT_EQ(run.operations, (std::vector<std::string>{"", "MPI_Send", "MPI_Recv"}));
  EXPECT_EQ(numbers[1].operations, (std::vector<std::uint32_t>{0, 2, 1}));
  // The run's stacks: a (1), a>b (2), then the second part's new ones: b (3), a>b>c (4).
  ASSERT_EQ(run.stacks.size(), 5u);
  EXPECT_EQ(numbers[1].frames, (std::vector<std::uint32_t>{0, 3, 1, 2, 4}));
  EXPECT_EQ(run.stacks[4].parent, 2u);
  EXPECT_EQ(run.stacks[4].interval, 2u);
  EXPECT_EQ(run.stacks[4].depth, 3u);
}

// A run whose clocks need no repair: only the hubs are set, and the parts send only theirs.
TEST(GraphParts, RepairedByPartsARunWithoutBackwardDependenciesMovesNoNode) {
  TraceRunBuilder b;
  constexpr int kRanks = 3;
  for (int r = 0; r < kRanks; ++r) {
    b.rank(r, kRanks);
    const auto compute = b.site(SiteKind::user, "compute", "calm.c", 3);
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier", "calm.c", 5);
    for (int i = 0; i < 4; ++i) {
      const double t = 1 + 10.0 * i;
      b.event(at(TraceEventKind::enter, t, compute)).event(at(TraceEventKind::leave, t + 1 + r, compute));
      b.op(barrier, t + 1 + r, t + 4, -1, i);
    }
  }
  const TraceRun run = b.build();
  const ActivityGraph measured = build_activity_graph(run, match_communication(run));
  ActivityGraph g = measured;
  const ClockRepair whole = repair_clock_condition(g);
  ASSERT_EQ(whole.moved, 0u);
  ASSERT_GT(g.nodes(), g.first_hub()) << "the barriers' hubs";
  std::vector<GraphPart> cut = cut_into(measured, run, kRanks);
  test::ThreadExchanges exchanges(kRanks);
  exchanges.run([&](std::uint32_t p, PartExchange& exchange) {
    const ClockRepair r = repair_clock_condition(cut[p], exchange);
    EXPECT_EQ(r.moved, 0u);
    EXPECT_EQ(r.edges, whole.edges);
  });
  for (const GraphPart& part : cut)
    for (std::uint32_t k = 0; k < part.graph.nodes(); ++k)
      EXPECT_EQ(part.graph.time[k], g.time[part.global(k)]) << "the run's node " << part.global(k);
}

}  // namespace
}  // namespace parperf::analysis
