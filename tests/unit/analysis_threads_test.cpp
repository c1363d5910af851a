// The trace analysis on several threads (analyse_traces' `threads`, side_by_side.hpp) gives what it
// gives on one, to the bit, and reports a failure of any part as the analysis in turn would.
// Labelled tsan: the parts that run at once read the same traces and graph.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <latch>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "analysis/trace/ordered_share.hpp"
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
  // One thread counts the nodes beside the matching, two in a pass of their own: the same reservation.
  EXPECT_EQ(one.graph->time.capacity(), two.graph->time.capacity()) << "the nodes were counted differently";
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

// OrderedShare: items read by the owner or a helper, each once, committed in order by the owner, never
// more than the window read ahead of the commits; the first failing item's error rethrown in turn.
struct ShareRecord {
  std::vector<std::atomic<int>> reads;
  std::vector<std::size_t> committed;  // in the order of the commits
  std::atomic<std::size_t> read_not_committed{0}, most_read_not_committed{0};
  // Item 0's reading waits until item 1 is read: by the other thread, as the one reading item 0 is
  // busy. Whichever thread took item 0, the helper then reads an item (needs a window of two). A
  // share whose helper never reads would leave it waiting: it gives up after 30 s, which only a
  // helper that does not help (or a thread not run for that long) reaches, and the test fails.
  bool first_waits_for_second = false;
  explicit ShareRecord(std::size_t n) : reads(n) {}
  void read(std::size_t i) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    if (i == 0 && first_waits_for_second)
      while (reads[1].load() == 0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    ++reads[i];
    const std::size_t now = ++read_not_committed;
    for (std::size_t most = most_read_not_committed; now > most;)
      if (most_read_not_committed.compare_exchange_weak(most, now)) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200 + 150 * (i % 3)));  // uneven items
  }
  void commit(std::size_t i) {
    committed.push_back(i);
    --read_not_committed;
  }
};

TEST(OrderedShare, EachItemIsReadOnceByEitherThreadAndCommittedInOrderWithinTheWindow) {
  constexpr std::size_t kItems = 24;
  for (int round = 0; round < 10; ++round) {
    ShareRecord record(kItems);
    record.first_waits_for_second = true;
    OrderedShare share(kItems, 2);
    std::atomic<bool> prepared{false};
    std::thread owner([&] {
      share.own([&] { prepared = true; }, [&](std::size_t i) { record.read(i); },
                [&](std::size_t i) { record.commit(i); });
    });
    // The helper comes once the owner has begun (before, it would return at once).
    while (!prepared) std::this_thread::yield();
    share.help([&](std::size_t i) { record.read(i); });
    owner.join();
    for (std::size_t i = 0; i < kItems; ++i)
      EXPECT_EQ(record.reads[i], 1) << "item " << i << ", round " << round;
    std::vector<std::size_t> in_order(kItems);
    for (std::size_t i = 0; i < kItems; ++i) in_order[i] = i;
    EXPECT_EQ(record.committed, in_order) << "round " << round;
    EXPECT_LE(record.most_read_not_committed, 2u) << "more items held than the window, round " << round;
    ASSERT_GT(share.helped(), 0u) << "the helper read no item, round " << round;
  }
}

// A window of one (the draft's when a rank holds more than an eighth of the points): the helper may
// still read the next item, but never while another is held.
TEST(OrderedShare, AWindowOfOneNeverHoldsTwoItemsAtOnce) {
  for (int round = 0; round < 5; ++round) {
    ShareRecord record(16);
    OrderedShare share(16, 2);
    std::atomic<bool> prepared{false};
    std::thread owner([&] {
      share.own(
          [&] {
            share.set_window(1);
            prepared = true;
          },
          [&](std::size_t i) { record.read(i); }, [&](std::size_t i) { record.commit(i); });
    });
    while (!prepared) std::this_thread::yield();
    share.help([&](std::size_t i) { record.read(i); });
    owner.join();
    EXPECT_EQ(record.most_read_not_committed, 1u) << "round " << round;
    EXPECT_EQ(record.committed.size(), 16u);
  }
}

TEST(OrderedShare, AHelperBeforeTheOwnerBeganReturnsAndTheOwnerReadsAlone) {
  ShareRecord record(5);
  OrderedShare share(5, 2);
  share.help([&](std::size_t i) { record.read(i); });  // as on one thread: the matching, then the draft
  share.own([] {}, [&](std::size_t i) { record.read(i); }, [&](std::size_t i) { record.commit(i); });
  EXPECT_EQ(share.helped(), 0u);
  EXPECT_EQ(record.committed, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(OrderedShare, TheFirstFailingItemsErrorIsRethrownInTurnAndTheHelperIsLetGo) {
  for (int round = 0; round < 20; ++round) {
    OrderedShare share(12, 2);
    std::vector<std::size_t> committed;
    std::atomic<bool> prepared{false};
    std::string error;
    std::thread owner([&] {
      try {
        share.own([&] { prepared = true; },
                  [&](std::size_t i) {
                    std::this_thread::sleep_for(std::chrono::microseconds(100));
                    if (i == 5 || i == 7) throw std::runtime_error("item " + std::to_string(i));
                  },
                  [&](std::size_t i) { committed.push_back(i); });
      } catch (const std::runtime_error& e) {
        error = e.what();
      }
    });
    while (!prepared) std::this_thread::yield();
    share.help([](std::size_t i) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      if (i == 5 || i == 7) throw std::runtime_error("item " + std::to_string(i));
    });
    owner.join();
    EXPECT_EQ(error, "item 5") << "round " << round << ": in turn, the reading stops at item 5";
    EXPECT_EQ(committed, (std::vector<std::size_t>{0, 1, 2, 3, 4})) << "round " << round;
  }
  // An owner that fails while it prepares lets a waiting helper go.
  OrderedShare share(3, 2);
  std::atomic<bool> preparing{false};
  std::thread owner([&] {
    EXPECT_THROW(share.own(
                     [&] {
                       preparing = true;
                       std::this_thread::sleep_for(std::chrono::milliseconds(5));
                       throw std::runtime_error("damaged");
                     },
                     [](std::size_t) {}, [](std::size_t) {}),
                 std::runtime_error);
  });
  while (!preparing) std::this_thread::yield();
  share.help([](std::size_t) { ADD_FAILURE() << "nothing is read after the owner failed"; });
  owner.join();
}

// The activity graph's draft read on two threads (the matching's thread helping once it is done) is the
// draft read on one: many ranks, whose intervals and operations each meets in its own order, so that
// a rank read ahead numbers them among its own until its turn.
TEST(AnalysisThreads, TheDraftReadWithAHelperIsTheDraftReadAlone) {
  TraceRunBuilder b;
  constexpr int kRanks = 12;
  for (int r = 0; r < kRanks; ++r) {
    b.rank(r, kRanks, 0);
    // Rank r meets its own interval first, then the shared ones, in an order of its own.
    const auto own = b.site(SiteKind::user, "phase_" + std::to_string(r), "ranks.c", 100 + r);
    const auto a = b.site(SiteKind::user, r % 2 ? "solve" : "assemble", "ranks.c", 10);
    const auto c = b.site(SiteKind::user, r % 2 ? "assemble" : "solve", "ranks.c", 11);
    const auto send = b.site(SiteKind::mpi_send, r % 3 ? "MPI_Send" : "MPI_Ssend", "ranks.c", 20);
    const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "ranks.c", 21);
    double t = 1;
    for (int i = 0; i < 40; ++i) {
      for (const auto site : {own, a, c}) {
        b.event({.kind = TraceEventKind::enter, .ticks = test::ms(t), .site = site})
            .event({.kind = TraceEventKind::leave, .ticks = test::ms(t + 0.5), .site = site});
        t += 0.6;
      }
      b.op(send, t, t + 0.1, (r + 1) % kRanks, i, 64);
      b.op(recv, t + 0.1, t + 0.3, (r + kRanks - 1) % kRanks, i, 64);
      t += 0.4;
    }
  }
  const TraceRun run = b.build();
  const Communication communication = match_communication(run);
  const ActivityGraph alone = ActivityGraphDraft(run).finish(communication);
  // Each rank's nodes are inside its own intervals, by name: whichever order it met them in.
  for (const GraphLocation& l : alone.locations) {
    std::set<std::string> names;
    for (std::uint32_t k = l.first; k < l.end; ++k)
      if (alone.stack[k] != 0) names.insert(alone.intervals[alone.stacks[alone.stack[k]].interval].name);
    EXPECT_EQ(names, (std::set<std::string>{"phase_" + std::to_string(l.rank), "assemble", "solve"}))
        << "rank " << l.rank << "'s intervals";
    std::set<std::string> operations;
    for (std::uint32_t k = l.first; k < l.end; ++k)
      if (alone.operation[k] != 0) operations.insert(alone.operations[alone.operation[k]]);
    EXPECT_EQ(operations, (std::set<std::string>{l.rank % 3 ? "MPI_Send" : "MPI_Ssend", "MPI_Recv"}))
        << "rank " << l.rank << "'s operations";
  }
  for (int round = 0; round < 10; ++round) {
    ActivityGraphDraft draft(run, ActivityGraphDraft::unread);
    std::atomic<bool> started{false};
    std::thread owner([&] {
      started = true;
      draft.read();
    });
    while (!started) std::this_thread::yield();
    draft.help_read();
    owner.join();
    const ActivityGraph shared = std::move(draft).finish(communication);
    ASSERT_EQ(shared.intervals.size(), alone.intervals.size());
    for (std::size_t i = 0; i < alone.intervals.size(); ++i)
      EXPECT_EQ(shared.intervals[i].name, alone.intervals[i].name) << "interval " << i;
    EXPECT_EQ(shared.operations, alone.operations) << "the operations are numbered differently";
    ASSERT_EQ(shared.stacks.size(), alone.stacks.size());
    for (std::size_t i = 0; i < alone.stacks.size(); ++i)
      EXPECT_EQ(shared.stacks[i].interval, alone.stacks[i].interval) << "stack frame " << i;
    EXPECT_EQ(shared.time, alone.time) << "round " << round;
    EXPECT_EQ(shared.segment, alone.segment) << "round " << round;
    EXPECT_EQ(shared.stack, alone.stack) << "round " << round;
    EXPECT_EQ(shared.operation, alone.operation) << "round " << round;
    EXPECT_EQ(shared.in_edge_begin, alone.in_edge_begin) << "round " << round;
    EXPECT_EQ(shared.order, alone.order) << "round " << round;
    EXPECT_EQ(shared.events, alone.events);
  }
}

}  // namespace
}  // namespace parperf::analysis
