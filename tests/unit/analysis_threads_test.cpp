// The trace analysis on several threads (analyse_traces' `threads`, side_by_side.hpp) gives what it
// gives on one, to the bit, and reports a failure of any part as the analysis in turn would.
// Labelled tsan: the parts that run at once read the same traces and graph.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <latch>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "analysis/trace/side_by_side.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "report/dependency_report.hpp"
#include "report/graph_links.hpp"
#include "report/wait_states_report.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using format::TraceEvent;
using format::TraceEventKind;
using test::TraceRunBuilder;

// Four ranks, 20 rounds: uneven work in "compute" (rank r works 10 + 3r ms), a ring of blocking
// messages of growing size, a barrier each round, rank 3's clock corrected 12 ms too far back: late
// senders, waits at the barrier, delay costs along the ring and a clock to repair.
TraceRunBuilder uneven_ring() {
  TraceRunBuilder b;
  constexpr int kRanks = 4, kRounds = 20;
  for (int r = 0; r < kRanks; ++r) {
    b.rank(r, kRanks, static_cast<std::uint32_t>(r % 2));
    const auto compute = b.site(SiteKind::user, "compute", "ring.c", 10);
    const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "ring.c", 20);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "ring.c", 21);
    const auto barrier = b.site(SiteKind::mpi_barrier, "MPI_Barrier", "ring.c", 30);
    const double work = 10 + 3 * r;
    double t = 1;
    for (int i = 0; i < kRounds; ++i) {
      b.event({.kind = TraceEventKind::enter, .ticks = test::ms(t), .site = compute})
          .event({.kind = TraceEventKind::leave, .ticks = test::ms(t + work), .site = compute});
      t += work;
      const std::uint64_t bytes = 64u << (i % 8);
      b.op(send, t, t + 0.2, (r + 1) % kRanks, i, bytes);
      b.op(recv, t + 0.2, t + 4 + r, (r + kRanks - 1) % kRanks, i, bytes);
      t += 4.2 + r;
      b.op(barrier, t, 1 + (i + 1) * 32.0, -1, i);
      t = 1 + (i + 1) * 32.0 + 0.1;
    }
    if (r == 3) b.correct_clock(r, -12);  // too far: its receives end before their sends began
  }
  return b;
}

TEST(AnalysisThreads, TwoThreadsGiveTheOneThreadsAnalysisToTheBit) {
  const TraceRunBuilder b = uneven_ring();
  const TraceRun run = b.build();
  const TraceAnalysis one = analyse_traces(run, 1);
  const TraceAnalysis two = analyse_traces(run, 2);
  ASSERT_GT(one.messages, 0u);
  ASSERT_GT(one.graph->nodes(), 0u);
  ASSERT_FALSE(one.waits.patterns.empty()) << "the constructed run has waiting to find";
  ASSERT_GT(one.repair.moved, 0u) << "the constructed run has a clock to repair";
  EXPECT_EQ(one.graph->time, two.graph->time) << "the repaired times differ";
  // (The costs follow from the times and the edges.)
  EXPECT_TRUE(one.graph->with_in_edges == two.graph->with_in_edges) << "the nodes with edges differ";
  EXPECT_EQ(one.graph->in_edge_begin, two.graph->in_edge_begin) << "the edges differ";
  for (std::uint32_t e = 0; e < one.graph->edges.size() && e < two.graph->edges.size(); ++e)
    EXPECT_EQ(one.graph->edges[e].source, two.graph->edges[e].source) << "edge " << e;
  EXPECT_EQ(one.graph->order, two.graph->order);
  EXPECT_EQ(report::dependencies_json(*one.graph), report::dependencies_json(*two.graph));
  EXPECT_EQ(report::wait_states_json(one), report::wait_states_json(two)) << "the wait states differ";
  EXPECT_EQ(report::critical_path_text(one), report::critical_path_text(two)) << "the critical path differs";
  EXPECT_EQ(one.critical_path.length_ns, two.critical_path.length_ns);
  EXPECT_EQ(report::delay_costs_text(one), report::delay_costs_text(two)) << "the delay costs differ";
  EXPECT_EQ(one.pop.overall.parallel_efficiency, two.pop.overall.parallel_efficiency);
  EXPECT_EQ(one.pop.overall.load_balance, two.pop.overall.load_balance);
  EXPECT_EQ(one.pop.overall.serialisation_efficiency, two.pop.overall.serialisation_efficiency);
  EXPECT_EQ(one.pop.overall.transfer_efficiency, two.pop.overall.transfer_efficiency);
  EXPECT_EQ(one.replayed_ns, two.replayed_ns) << "the replay's self-check differs";
  EXPECT_EQ(one.repair.moved, two.repair.moved);
  EXPECT_EQ(one.repair.largest_shift_ns, two.repair.largest_shift_ns);
}

TEST(AnalysisThreads, BothPartsRunAndEachOnesResultsAreThereAfter) {
  for (const unsigned threads : {1u, 2u, 8u}) {
    std::atomic<int> ran{0};
    std::thread::id main_thread, side_thread;
    int main_result = 0, side_result = 0;
    run_side_by_side(
        threads,
        [&] {
          main_thread = std::this_thread::get_id();
          main_result = 1;
          ++ran;
        },
        [&] {
          side_thread = std::this_thread::get_id();
          side_result = 2;
          ++ran;
        });
    EXPECT_EQ(ran, 2) << threads << " threads";
    EXPECT_EQ(main_result + side_result, 3) << threads << " threads";
    EXPECT_EQ(main_thread, std::this_thread::get_id()) << "the main part runs on the caller's thread";
    EXPECT_EQ(side_thread == main_thread, threads == 1) << threads << " threads";
  }
}

TEST(AnalysisThreads, TheMainPartsErrorIsTheOneReportedAsInTurnAndTheSidesIsNotLost) {
  for (const unsigned threads : {1u, 2u}) {
    try {
      run_side_by_side(
          threads, [] { throw std::runtime_error("main's"); }, [] { throw std::runtime_error("side's"); });
      ADD_FAILURE() << "no error with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "main's") << threads << " threads";
    }
    try {
      run_side_by_side(
          threads, [] {}, [] { throw std::runtime_error("side's"); });
      ADD_FAILURE() << "the side's error was lost with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "side's") << threads << " threads";
    }
  }
}

// run_parts: every part runs once, on one thread or shared out between two; a part that waits for an
// earlier one (as POP waits for the wait states to let go of the messages) is never left waiting.
TEST(AnalysisThreads, EveryPartRunsOnceAndALaterPartMayWaitForAnEarlierOne) {
  for (const unsigned threads : {1u, 2u, 8u})
    for (int round = 0; round < 50; ++round) {
      std::vector<int> ran(5, 0);
      std::latch first_done(1);
      std::vector<std::function<void()>> parts = {[&] {
                                                    ++ran[0];
                                                    first_done.count_down();
                                                  },
                                                  [&] { ++ran[1]; }, [&] { ++ran[2]; },
                                                  [&] {
                                                    first_done.wait();
                                                    ++ran[3];
                                                  },
                                                  [&] { ++ran[4]; }};
      run_parts(threads, parts);
      EXPECT_EQ(ran, std::vector<int>(5, 1)) << threads << " threads, round " << round;
    }
}

TEST(AnalysisThreads, TheFirstFailingPartsErrorIsTheOneReported) {
  for (const unsigned threads : {1u, 2u})
    for (int round = 0; round < 20; ++round) {
      try {
        run_parts(threads, {[] {}, [] { throw std::runtime_error("second's"); },
                            [] { throw std::runtime_error("third's"); }});
        ADD_FAILURE() << "no error with " << threads << " threads";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "second's") << threads << " threads: the parts in turn would stop at it";
      }
    }
}

}  // namespace
}  // namespace parperf::analysis
