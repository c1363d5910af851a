// The whole trace analysis made by parts (analyse_traces_by_parts), as the processes of `parperf
// report --np K` make it, against the analysis of one process (analyse_traces): every figure the
// reports show (their JSON, whose numbers are written to the last bit) and every replay `parperf
// whatif` makes must be the same on every part, for any number of parts. Each part sees only its own
// ranks' traces, as a process of the job opens only those. The parts run on threads: labelled tsan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/what_if.hpp"
#include "report/dependency_report.hpp"
#include "report/graph_links.hpp"
#include "report/wait_states_report.hpp"
#include "report/whatif_report.hpp"
#include "unit/analysis_graph_parts_runs.hpp"
#include "unit/analysis_trace_run_builder.hpp"
#include "unit/thread_part_exchange.hpp"

namespace parperf::analysis {
namespace {

using test::chain_run;
using test::crossed_ring_run;
using test::random_hybrid_run;
using test::random_mpi_run;
using test::random_shmem_run;
using test::reduce_then_reply_run;
using test::rich_run;
using test::sendrecv_run;
using test::shmem_run;
using test::TraceRunBuilder;

// How many random runs a test compares (PARPERF_RANDOM_RUNS, for a longer search by hand).
const std::uint32_t kRandomRuns = [] {
  const char* runs = std::getenv("PARPERF_RANDOM_RUNS");
  return runs ? static_cast<std::uint32_t>(std::strtoul(runs, nullptr, 10)) : 20u;
}();

// What the reports render of an analysis, and the replays `parperf whatif` would print for it.
std::vector<std::string> rendered(const TraceAnalysis& a) {
  std::vector<std::string> out = {
      report::wait_states_json(a).dump(),
      report::wait_states_text(a),  // the text too: it reads the run's graph, which parts hold without nodes
      report::critical_path_text(a),
      report::delay_costs_text(a),
      report::critical_path_json(a.critical_path).dump(),
      report::delay_costs_json(a.delays).dump(),
      report::clock_repair_json(a.repair).dump(),
      report::pop_json(PopFactors{}, &a.pop).dump(),
      report::dependencies_json(*a.graph).dump(),
      std::to_string(a.graph->locations.size()) + " locations, " + std::to_string(a.graph->events) +
          " events",
      "network " + std::to_string(a.network.latency_ns) + " ns, " + std::to_string(a.network.bytes_per_ns) +
          " B/ns over " + std::to_string(a.network.observations),
  };
  ReplayChanges slow;
  slow.network = ReplayChanges::Network::model;
  slow.model = {.latency_ns = 2e5, .bytes_per_ns = 0.05};
  ReplayChanges balanced;
  balanced.balance = {a.graph->intervals.empty() ? std::string() : a.graph->intervals.front().name};
  ReplayChanges ideal;
  ideal.network = ReplayChanges::Network::ideal;
  for (const ReplayChanges& c : {ReplayChanges{}, slow, balanced, ideal})
    out.push_back(report::whatif_json(what_if(a, c)).dump());
  return out;
}

// The run as one process of a K-process job holds it: every rank, but only its own ranks' traces.
TraceRun seen_by(const TraceRun& run, const RankPartition& ranks, std::uint32_t part) {
  TraceRun seen = run;
  for (std::size_t r = 0; r < seen.ranks.size(); ++r)
    if (r < ranks.first_rank[part] || r >= ranks.first_rank[part + 1]) seen.ranks[r].trace = nullptr;
  return seen;
}

void expect_parts_agree(const TraceRun& run, const std::string& name) {
  const std::vector<std::string> whole = rendered(analyse_traces(run));
  for (std::uint32_t parts = 1; parts <= 5; ++parts) {
    const RankPartition ranks = partition_ranks(run, parts);
    std::vector<std::vector<std::string>> by_part(parts);
    std::vector<std::uint8_t> refused(parts, 0);
    test::ThreadExchanges exchanges(parts);
    exchanges.run([&](std::uint32_t part, PartExchange& exchange) {
      const TraceRun seen = seen_by(run, ranks, part);
      try {
        by_part[part] = rendered(analyse_traces_by_parts(seen, ranks, exchange));
      } catch (const NotByParts&) {  // the command then analyses the whole run in one process
        refused[part] = 1;
      }
    });
    if (std::count(refused.begin(), refused.end(), 1) > 0) {
      EXPECT_EQ(std::count(refused.begin(), refused.end(), 1), parts)
          << name << " analysed by " << parts << " parts: refused by some parts only";
      continue;
    }
    for (std::uint32_t part = 0; part < parts; ++part)
      for (std::size_t i = 0; i < whole.size(); ++i)
        EXPECT_EQ(by_part[part][i], whole[i]) << name << " analysed by " << parts << " parts: part " << part
                                              << "'s figure " << i << " is not the whole analysis's";
  }
}

TEST(TraceAnalysisByParts, EveryFigureOfAHybridRunIsTheWholeAnalysis) {
  // Messages, collectives, OpenMP barriers and locks, puts, clocks the repair moves, a paused phase.
  TraceRunBuilder b;
  expect_parts_agree(rich_run(b, 5), "a hybrid run of 5 ranks");
}

TEST(TraceAnalysisByParts, EveryFigureOfAChainIsTheWholeAnalysis) {
  TraceRunBuilder b;
  expect_parts_agree(chain_run(b, 6), "a chain of 6 ranks");
}

TEST(TraceAnalysisByParts, PhasesOfOneRanksSwitchesHoldEveryRank) {
  TraceRunBuilder b;
  const TraceRun run = chain_run(b, 6, true);
  const TraceAnalysis whole = analyse_traces(run);
  ASSERT_EQ(whole.pop.phases.size(), 2u) << "rank 0 paused recording once: two phases";
  EXPECT_EQ(whole.pop.phases.front().ranks, 6u) << "every rank is in the first phase, though one switched";
  expect_parts_agree(run, "a chain of 6 ranks whose first pauses recording");
}

TEST(TraceAnalysisByParts, AHubOnlyAnotherPartReadsIsGivenItBeforeItsOwnerWaits) {
  TraceRunBuilder b;
  expect_parts_agree(reduce_then_reply_run(b, 4), "a reduce to the last of 4 ranks, then its replies");
}

TEST(TraceAnalysisByParts, MessagesASendrecvBothSendsAndReceivesAreInTheWholeRunsOrder) {
  TraceRunBuilder b;
  const TraceRun run = sendrecv_run(b, 6);
  ASSERT_EQ(analyse_traces(run).messages, 6u * 2 * 3) << "two swaps a round, each two messages";
  expect_parts_agree(run, "pairwise MPI_Sendrecv swaps of 6 ranks");
}

TEST(TraceAnalysisByParts, CyclesThroughSeveralPartsAreBrokenAsTheWholeGraphBreaksThem) {
  TraceRunBuilder b;
  const TraceRun run = crossed_ring_run(b, 5);
  ASSERT_GT(analyse_traces(run).graph->unlinked.cycles_broken, 0u) << "the ring's messages form cycles";
  expect_parts_agree(run, "a ring of 5 ranks whose messages form cycles");
}

TEST(TraceAnalysisByParts, EveryFigureOfAnOpenShmemRunIsTheWholeAnalysis) {
  // barrier_all, barriers and broadcasts over an active set, reductions over all PEs (one not every
  // PE traced), puts completed by quiets and awaited by wait_until, a clock the repair moves.
  TraceRunBuilder b;
  const TraceRun run = shmem_run(b, 6);
  const TraceAnalysis whole = analyse_traces(run);
  EXPECT_EQ(whole.graph->linked.shmem_barriers, 4u) << "a shmem_barrier_all a round";
  EXPECT_EQ(whole.graph->linked.shmem_collectives, 4u * 2 + 3)
      << "a barrier and a broadcast over the even PEs a round, a reduction over all in three rounds";
  EXPECT_EQ(whole.graph->unlinked.shmem_collectives, 2u)
      << "the reduction PE 1 skipped, and its collect without a set";
  EXPECT_GT(whole.graph->linked.shmem_waits, 0u);
  EXPECT_GT(whole.graph->linked.shmem_quiets, 0u);
  EXPECT_GT(whole.repair.moved, 0u) << "PE 3's clock is off: the repair must move nodes";
  expect_parts_agree(run, "an OpenSHMEM run of 6 PEs");
  TraceRunBuilder three;
  expect_parts_agree(shmem_run(three, 3), "an OpenSHMEM run of 3 PEs");
}

TEST(TraceAnalysisByParts, RandomOpenShmemRunsAreTheWholeAnalysis) {
  // Calls that pair up however their counts fall (shmem_instances.hpp): every figure by parts must
  // still be the whole analysis's.
  for (std::uint32_t seed = 1; seed <= kRandomRuns; ++seed) {
    TraceRunBuilder b;
    expect_parts_agree(random_shmem_run(b, seed), "random OpenSHMEM run " + std::to_string(seed));
  }
}

TEST(TraceAnalysisByParts, RandomMpiRunsAreTheWholeAnalysis) {
  // Messages and collectives that pair up however their counts fall: every figure by parts must still
  // be the whole analysis's.
  for (std::uint32_t seed = 1; seed <= kRandomRuns; ++seed) {
    TraceRunBuilder b;
    expect_parts_agree(random_mpi_run(b, seed), "random MPI run " + std::to_string(seed));
  }
}

TEST(TraceAnalysisByParts, RandomHybridRunsAreTheWholeAnalysis) {
  // OpenMP barriers passed by some of a region's threads, locks, a rank's paused round, MPI across
  // the cuts: every figure by parts must still be the whole analysis's.
  for (std::uint32_t seed = 1; seed <= kRandomRuns; ++seed) {
    TraceRunBuilder b;
    expect_parts_agree(random_hybrid_run(b, seed), "random hybrid run " + std::to_string(seed));
  }
}

TEST(TraceAnalysisByParts, TheRunsFiguresAreNotEmpty) {
  // The comparison above means something only if the analysis found what the runs hold.
  TraceRunBuilder b;
  const TraceAnalysis a = analyse_traces(rich_run(b, 5));
  EXPECT_GT(a.messages, 50u);
  EXPECT_GT(a.collectives, 5u);
  EXPECT_GT(a.repair.moved, 0u) << "the odd ranks' clocks are off: the repair must move nodes";
  EXPECT_GE(a.waits.patterns.size(), 3u);
  EXPECT_GT(a.delays.charged_ns, 0);
  EXPECT_EQ(a.graph->phases.size(), 2u) << "recording was paused once: two phases";
}

}  // namespace
}  // namespace parperf::analysis
