// The MPI collector's figures as characteristics: communication split into real sync and starts,
// management as productive Sys time, MPI_Init and MPI_Finalize as start-up and shut-down, overlap,
// collectives' potential losses from the matching, the class table and call rows, MPI SRC points, hybrid
// ranks, and an OpenMP attribution that leaves MPI operations alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "analysis/characteristics.hpp"
#include "analysis/mpi_attribution.hpp"
#include "analysis/mpi_calls.hpp"
#include "analysis/openmp_attribution.hpp"
#include "analysis/processors.hpp"
#include "analysis/seconds.hpp"
#include "analysis/src_points.hpp"
#include "unit/analysis_mpi_test_profiles.hpp"
#include "unit/profile_values.hpp"
#include "unit/seconds_assertion.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kind;
using test::kMs;
using test::MpiProfile;
using testing_support::seconds_are;

// The analysis as `parperf report` runs it.
IntervalTree analysed(const std::vector<format::Profile>& profiles) {
  IntervalTree tree = build_interval_tree(profiles);
  analyze_mpi(tree, profiles);
  attribute_openmp(tree);
  return tree;
}

Characteristics program_of(const IntervalTree& tree, Unit unit) {
  const std::vector<ProcessorInput> inputs = processor_inputs(tree, tree.intervals.at(0), unit);
  return characterize(inputs);
}

// One rank, one thread, 1 s: 10 receives (300 ms, 200 of them waiting for the sender), MPI_Init
// (50 ms), an MPI_Isend (10 ms) and its MPI_Wait (40 ms, 10 waiting; the send ran 25 ms while the
// program computed).
MpiProfile one_rank() {
  MpiProfile p(0, 1);
  p.thread(1000 * kMs);
  const auto recv = p.site(kind(SiteKind::mpi_recv), "MPI_Recv", "late_sender.c", 25);
  const auto init = p.site(kind(SiteKind::mpi_management), "MPI_Init", "late_sender.c", 10);
  const auto isend = p.site(kind(SiteKind::mpi_isend), "MPI_Isend", "late_sender.c", 30);
  const auto wait = p.site(kind(SiteKind::mpi_wait), "MPI_Wait", "late_sender.c", 31);
  p.op(0, 0, recv, 10, 300 * kMs, 200 * kMs);
  p.op(0, 0, init, 1, 50 * kMs);
  p.op(0, 0, isend, 1, 10 * kMs);
  p.op(0, 0, wait, 1, 40 * kMs, 10 * kMs).overlap_ns = 25 * kMs;
  return p;
}

TEST(analysis_mpi_attribution, CommunicationIsTheTimeInCallsManagementIsProductiveSys) {
  MpiProfile p = one_rank();
  const auto split = p.site(kind(SiteKind::mpi_management), "MPI_Comm_split", "late_sender.c", 12);
  p.op(0, 0, split, 1, 20 * kMs);
  const IntervalTree tree = analysed({p.profile()});
  const TimeBreakdown& b = tree.intervals[0].locations.at(0).breakdown;
  EXPECT_TRUE(
      seconds_are("real sync", b.communication_real_sync, 0.21, "200 ms in MPI_Recv + 10 ms in MPI_Wait"));
  EXPECT_TRUE(seconds_are("starts", b.communication_starts, 0.14,
                          "the rest of Recv, Isend and Wait: 100 + 10 + 30 ms"));
  EXPECT_TRUE(seconds_are("productive sys", b.productive_sys, 0.02, "MPI_Comm_split is not communication"));
  EXPECT_TRUE(seconds_are("start-up", b.startup, 0.05, "MPI_Init is start-up, not work"));
  EXPECT_TRUE(seconds_are("overlap", b.overlap, 0.025));
  const Characteristics c = program_of(tree, Unit::thread);
  EXPECT_TRUE(seconds_are("execution time", c.execution_time, 0.95, "1 s less MPI_Init's 50 ms"));
  EXPECT_TRUE(seconds_are("communication", c.communication, 0.35));
  EXPECT_TRUE(seconds_are("lost time", c.lost_time, 0.35, "communication is the only loss of one processor"));
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.60));
  EXPECT_TRUE(seconds_are("productive sys", c.productive_sys, 0.02));
  EXPECT_TRUE(seconds_are("overlap", c.overlap, 0.025, "potential: outside lost time"));
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(c), 0));
}

// MPI_Init inside an interval `setup` of 200 ms (150 ms of it) and MPI_Finalize at the top: start-up
// and shut-down leave the execution time of the interval that
// holds the call and of every interval around it, and are reported apart. On two ranks whose
// MPI_Finalize differ (one waits 300 ms there for the other), the run's efficiency is that of the
// work between them.
TEST(analysis_mpi_attribution, StartUpAndShutDownAreNeitherWorkNorTheIntervalsTime) {
  std::vector<format::Profile> profiles;
  for (std::int64_t rank : {0, 1}) {
    MpiProfile p(rank, 2);
    const std::uint64_t finalize = rank == 0 ? 400 * kMs : 100 * kMs;  // rank 0 waits for rank 1
    p.thread((rank == 0 ? 700 : 1000) * kMs + finalize);
    const auto setup = p.site(1, "setup", "app.c", 3);
    const auto init = p.site(kind(SiteKind::mpi_management), "MPI_Init", "app.c", 4);
    const auto fin = p.site(kind(SiteKind::mpi_management), "MPI_Finalize", "app.c", 9);
    const std::uint32_t node = p.node(0, 0, setup, 200 * kMs);
    p.op(0, node, init, 1, 150 * kMs);
    p.op(0, 0, fin, 1, finalize);
    profiles.push_back(p.profile());
  }
  const IntervalTree tree = analysed(profiles);
  ASSERT_EQ(tree.intervals.size(), 2u);
  const LocationStats& setup0 = tree.intervals[1].locations.at(0);
  EXPECT_TRUE(seconds_are("setup's time", seconds(setup0.exec_ns()), 0.05, "200 ms less MPI_Init's 150"));
  EXPECT_TRUE(seconds_are("setup's start-up", setup0.breakdown.startup, 0.15));
  const Characteristics c = program_of(tree, Unit::rank);
  EXPECT_TRUE(seconds_are("execution time", c.execution_time, 0.85, "rank 1: 1.1 s less 150 + 100 ms"));
  EXPECT_TRUE(seconds_are("start-up", c.startup, 0.3, "MPI_Init: 150 ms on each rank"));
  EXPECT_TRUE(seconds_are("shut-down", c.shutdown, 0.5, "MPI_Finalize: 400 + 100 ms"));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0.3, "rank 0's work ends 300 ms before rank 1's"));
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 1.4, "550 + 850 ms of work"));
  EXPECT_TRUE(seconds_are("productive sys", c.productive_sys, 0, "MPI_Init and MPI_Finalize are no work"));
  EXPECT_NEAR(c.efficiency, 1.4 / 1.7, 1e-9);
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(c), 0));
}

TEST(analysis_mpi_attribution, AnIntervalsCommunicationIncludesItsSubtrees) {
  MpiProfile p(0, 1);
  p.thread(1000 * kMs);
  const auto exchange = p.site(1, "exchange", "halo.c", 5);
  const auto recv = p.site(kind(SiteKind::mpi_recv), "MPI_Recv", "halo.c", 9);
  const std::uint32_t node = p.node(0, 0, exchange, 400 * kMs);
  p.op(0, node, recv, 4, 300 * kMs, 100 * kMs);
  const IntervalTree tree = analysed({p.profile()});
  ASSERT_EQ(tree.intervals.size(), 2u);
  for (std::size_t i : {0u, 1u}) {
    const TimeBreakdown& b = tree.intervals[i].locations.at(0).breakdown;
    EXPECT_TRUE(
        seconds_are(i == 0 ? "program real sync" : "exchange real sync", b.communication_real_sync, 0.1));
    EXPECT_TRUE(seconds_are(i == 0 ? "program starts" : "exchange starts", b.communication_starts, 0.2));
  }
}

TEST(analysis_mpi_attribution, OpenMpAttributionCountsNoMpiWaitAsOpenMpWaiting) {
  // MPI_Recv waited 200 ms for its partner, an OpenMP critical section 50 ms for the lock: only the
  // latter is OpenMP waiting, the former is communication. Before MPI kinds were excluded, the OpenMP
  // pass read every operation's wait as OpenMP waiting and counted the receive twice.
  MpiProfile p = one_rank();
  const auto critical = p.site(kind(SiteKind::omp_critical), "critical", "late_sender.c", 50);
  p.op(0, 0, critical, 2, 60 * kMs, 50 * kMs);
  const auto barrier = p.site(kind(SiteKind::mpi_barrier), "MPI_Barrier", "late_sender.c", 60);
  auto& b = p.op(0, 0, barrier, 1, 20 * kMs);
  b.sync_ns = 20 * kMs;  // a writer's mistake: it must not become OpenMP desync either
  const Characteristics c = program_of(analysed({p.profile()}), Unit::thread);
  EXPECT_TRUE(seconds_are("OpenMP waiting", c.waiting, 0.05, "the critical section only"));
  EXPECT_TRUE(seconds_are("desync", c.desync, 0));
  EXPECT_TRUE(seconds_are("communication", c.communication, 0.37, "the 350 ms above and the 20 ms barrier"));
}

// Two ranks at one barrier, inside interval "step" of rank 0 and at the program level of rank 1:
// rank 0 arrives at 1.0 s and leaves at 1.6 s, rank 1 arrives at 1.5 s and leaves at 1.6 s.
std::vector<format::Profile> two_ranks_at_a_barrier() {
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(2000 * kMs);
  r1.thread(2000 * kMs);
  const auto step = r0.site(1, "step", "x.c", 30);
  const auto b0 = r0.site(kind(SiteKind::mpi_barrier), "MPI_Barrier", "x.c", 40);
  const auto b1 = r1.site(kind(SiteKind::mpi_barrier), "MPI_Barrier", "x.c", 40);
  const std::uint32_t node = r0.node(0, 0, step, 800 * kMs);
  // The runtime writes 0 for a collective's wait; a stray value must be replaced by the matching's.
  r0.op(0, node, b0, 1, 600 * kMs, 999 * kMs);
  r1.op(0, 0, b1, 1, 100 * kMs);
  r0.instance(r0.communicator(0xAAAA, 0, 2, 0, 1), 0, 1000 * kMs, 1600 * kMs, b0, 0, node);
  r1.instance(r1.communicator(0xAAAA, 0, 2, 1, 1), 0, 1500 * kMs, 1600 * kMs, b1, 0, 0);
  return {r0.profile(), r1.profile()};
}

TEST(analysis_mpi_attribution, CollectivesTakeRealSyncAndPotentialLossesFromTheMatchedInstances) {
  const IntervalTree tree = analysed(two_ranks_at_a_barrier());
  ASSERT_EQ(tree.intervals.size(), 2u);
  const LocationStats& step = tree.intervals[1].locations.at(0);
  EXPECT_TRUE(seconds_are("rank 0's real sync in step", step.breakdown.communication_real_sync, 0.5,
                          "it waited from 1.0 s to rank 1's arrival at 1.5 s"));
  EXPECT_TRUE(seconds_are("rank 0's starts in step", step.breakdown.communication_starts, 0.1));
  EXPECT_TRUE(seconds_are("rank 0's synchronization in step", step.breakdown.synchronization, 0.5));
  ASSERT_EQ(step.operations.size(), 1u);
  EXPECT_EQ(step.operations[0].wait_ns, 500 * kMs) << "the matching's real sync replaces the runtime's value";
  EXPECT_TRUE(seconds_are("arrival spread", step.operations[0].arrival_spread, 0.5));
  const Characteristics c = program_of(tree, Unit::rank);
  EXPECT_TRUE(seconds_are("synchronization", c.synchronization, 0.5, "Σ_p (1.5 − a_p) = 0.5 + 0"));
  EXPECT_TRUE(seconds_are("time variation", c.time_variation, 0, "both leave at 1.6 s"));
  EXPECT_TRUE(seconds_are("real sync", c.communication_real_sync, 0.5));
  EXPECT_TRUE(seconds_are("starts", c.communication_starts, 0.2, "0.1 s on each rank"));
}

// Two ranks at three MPI_Allreduce calls; rank 1 arrives 500, 300 and 90 ms after rank 0, and both
// leave as it arrives: rank 0 waits 0.89 s in all, 0.5 s at most. The runtime writes 0 for a
// collective's wait and its maximum alike; both come from the matched instances.
std::vector<format::Profile> three_allreduces() {
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(2000 * kMs);
  r1.thread(2000 * kMs);
  const auto a0 = r0.site(kind(SiteKind::mpi_reduction), "MPI_Allreduce", "x.c", 50);
  const auto a1 = r1.site(kind(SiteKind::mpi_reduction), "MPI_Allreduce", "x.c", 50);
  format::OperationStats& calls0 = r0.op(0, 0, a0, 3, 893 * kMs);  // 501, 301 and 91 ms
  calls0.min_ns = 91 * kMs;
  calls0.max_ns = 501 * kMs;
  calls0.wait_max_ns = 0;
  r1.op(0, 0, a1, 3, 3 * kMs).wait_max_ns = 0;  // 1 ms each
  const std::size_t c0 = r0.communicator(0xBBBB, 0, 2, 0, 3), c1 = r1.communicator(0xBBBB, 0, 2, 1, 3);
  const std::uint64_t gaps[] = {500 * kMs, 300 * kMs, 90 * kMs};
  std::uint64_t t = 100 * kMs;
  for (std::uint64_t sequence = 0; sequence < 3; ++sequence) {
    const std::uint64_t gap = gaps[sequence];
    r0.instance(c0, sequence, t, t + gap + kMs, a0);
    r1.instance(c1, sequence, t + gap, t + gap + kMs, a1);
    t += gap + 100 * kMs;
  }
  return {r0.profile(), r1.profile()};
}

TEST(analysis_mpi_attribution, ACollectivesWaitMaxIsItsLongestMatchedWait) {
  const std::vector<SrcPoint> points = src_points(analysed(three_allreduces()));
  ASSERT_EQ(points.size(), 1u);
  const SrcPoint& allreduce = points[0];
  EXPECT_TRUE(seconds_are("MPI_Allreduce wait", allreduce.wait, 0.89, "rank 0 waits 500 + 300 + 90 ms"));
  EXPECT_TRUE(seconds_are("MPI_Allreduce wait max", allreduce.wait_max, 0.5,
                          "rank 0's longest wait, for rank 1 arriving 500 ms after it"));
  const double mean = allreduce.wait / static_cast<double>(allreduce.count);
  EXPECT_GE(allreduce.wait_max, mean)
      << "wait max " << allreduce.wait_max << " s below the mean wait " << mean << " s: an impossible figure";
  EXPECT_LE(allreduce.wait_max, allreduce.wait) << "wait max above the sum of the waits";
}

TEST(analysis_mpi_attribution, TheClassTableAndTheCallRowsSumTheCallsOfTheSubtree) {
  std::vector<format::Profile> profiles = two_ranks_at_a_barrier();
  for (std::int64_t r : {0, 1}) {
    format::Profile& p = profiles[static_cast<std::size_t>(r)];
    const auto id = static_cast<std::uint32_t>(p.sites.size() + 1);
    p.sites.push_back(parperf::test::make_site(id, kind(SiteKind::mpi_send), 12, "MPI_Send", "x.c"));
    p.sites.push_back(parperf::test::make_site(id + 1, kind(SiteKind::mpi_management), 5, "MPI_Init", "x.c"));
    format::OperationStats send;
    send.site = id;
    send.count = 3;
    send.sum_ns = 30 * kMs;
    send.wait_ns = 6 * kMs;
    send.bytes = 3000;
    send.partner_min = 1 - r;
    send.partner_max = 1 - r;
    send.partner_set = std::uint64_t{1} << (1 - r);
    send.last_begin_ns = 1900 * kMs;
    send.last_end_ns = 1910 * kMs;
    format::OperationStats init;
    init.site = id + 1;
    init.count = 1;
    init.sum_ns = 40 * kMs;
    p.threads[0].nodes[0].operations.push_back(send);
    p.threads[0].nodes[0].operations.push_back(init);
  }
  // Rank 1's clock is 100 ms behind rank 0's: corrected, it reaches the barrier at 1.6 s, when rank 0
  // leaves it.
  profiles[1].mpi.clock.push_back(
      parperf::test::make_clock_sync(format::ClockPhase::init, 1, 10 * kMs, 12 * kMs, 0, 2 * kMs));
  profiles[0].mpi.clock.push_back(
      parperf::test::make_clock_sync(format::ClockPhase::init, 1, 0, 0, 111 * kMs, 2 * kMs));
  const IntervalTree tree = analysed(profiles);

  const std::vector<MpiCallFigures> calls = mpi_calls(tree, 0);
  ASSERT_EQ(calls.size(), 6u) << "barrier, send and init on each of two ranks";
  const auto send1 = std::find_if(calls.begin(), calls.end(), [](const MpiCallFigures& c) {
    return c.rank == 1 && c.identity.name == "MPI_Send";
  });
  ASSERT_NE(send1, calls.end());
  EXPECT_EQ(send1->mpi_class, MpiClass::point_to_point);
  EXPECT_EQ(send1->count, 3u);
  EXPECT_TRUE(seconds_are("send time", send1->time, 0.03));
  EXPECT_TRUE(seconds_are("send real sync", send1->real_sync, 0.006));
  EXPECT_EQ(send1->partner_min, 0);
  EXPECT_EQ(send1->partners(), 1);
  ASSERT_TRUE(send1->last_end.has_value());
  EXPECT_TRUE(
      seconds_are("last end on rank 0's clock", *send1->last_end, 2.01, "1.91 s + the 100 ms offset"));
  const auto init1 = std::find_if(calls.begin(), calls.end(), [](const MpiCallFigures& c) {
    return c.rank == 1 && c.identity.name == "MPI_Init";
  });
  ASSERT_NE(init1, calls.end());
  EXPECT_EQ(init1->mpi_class, MpiClass::management);
  EXPECT_EQ(init1->real_sync + init1->starts, 0.0) << "management is not communication";
  EXPECT_FALSE(init1->last_end.has_value()) << "no time stamps recorded";

  const std::vector<CommunicationClassFigures> classes = communication_classes(calls);
  ASSERT_EQ(classes.size(), 2u) << "point to point and barrier; management is no communication class";
  EXPECT_EQ(classes[0].mpi_class, MpiClass::point_to_point);
  EXPECT_EQ(classes[0].count, 6u);
  EXPECT_EQ(classes[0].bytes, 6000u);
  EXPECT_TRUE(seconds_are("point-to-point real sync", classes[0].real_sync, 0.012));
  EXPECT_TRUE(seconds_are("point-to-point starts", classes[0].starts, 0.048));
  EXPECT_EQ(classes[1].mpi_class, MpiClass::barrier);
  EXPECT_EQ(classes[1].count, 2u);
  EXPECT_TRUE(seconds_are("barrier time", classes[1].time, 0.7));
  EXPECT_TRUE(
      seconds_are("barrier synchronization", classes[1].synchronization, 0.6, "1.6 s − 1.0 s on rank 0"));

  // In "step" only rank 0's barrier is.
  const std::vector<CommunicationClassFigures> step = communication_classes(mpi_calls(tree, 1));
  ASSERT_EQ(step.size(), 1u);
  EXPECT_EQ(step[0].count, 1u);
}

TEST(analysis_mpi_attribution, MpiSrcPointsLoseRealSyncPlusStartsAndNameTheWaitingRank) {
  const std::vector<SrcPoint> points = src_points(analysed({one_rank().profile()}));
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].identity.name, "MPI_Recv") << "most lost time first";
  EXPECT_TRUE(seconds_are("MPI_Recv lost", points[0].lost(), 0.3, "real sync 0.2 + starts 0.1"));
  EXPECT_TRUE(seconds_are("MPI_Recv real sync", points[0].wait, 0.2));
  ASSERT_EQ(points[0].ranks.size(), 1u);
  EXPECT_TRUE(seconds_are("rank 0's real sync", points[0].ranks[0].real_sync, 0.2));
  const auto init = std::find_if(points.begin(), points.end(),
                                 [](const SrcPoint& p) { return p.identity.name == "MPI_Init"; });
  ASSERT_NE(init, points.end());
  EXPECT_EQ(init->lost(), 0.0) << "MPI_Init loses nothing";
  EXPECT_TRUE(seconds_are("MPI_Wait overlap", points[1].overlap + points[2].overlap, 0.025));
}

// A hybrid rank: the master (initial thread) runs the program for 1 s, of which 0.4 s in a parallel
// region with one worker, and spends 0.3 s of its sequential time in MPI_Recv (0.2 s waiting).
std::vector<format::Profile> hybrid_rank() {
  MpiProfile p(0, 1);
  p.thread(1000 * kMs, format::ThreadKind::initial);
  p.thread(0, format::ThreadKind::openmp_worker);  // only the path to the region
  const auto region = p.site(kind(SiteKind::omp_parallel), "parallel", "h.c", 20);
  const auto recv = p.site(kind(SiteKind::mpi_recv), "MPI_Recv", "h.c", 30);
  p.node(0, 0, region, 400 * kMs);
  p.node(1, 0, region, 400 * kMs);
  p.op(0, 0, recv, 1, 300 * kMs, 200 * kMs);
  return {p.profile()};
}

TEST(analysis_mpi_attribution, AHybridRanksCommunicationIsItsMastersWhateverTheUnit) {
  const IntervalTree tree = analysed(hybrid_rank());
  // The worker is absent for the master's 0.6 s of sequential code, half of it communication.
  const LocationStats& worker = tree.intervals[0].locations.at(1);
  EXPECT_TRUE(seconds_are("worker's communication",
                          worker.breakdown.communication_real_sync + worker.breakdown.communication_starts,
                          0.3, "absent while the master communicates"));
  EXPECT_TRUE(seconds_are("worker's real sync", worker.breakdown.communication_real_sync, 0.2));
  EXPECT_TRUE(seconds_are("worker's insufficient parallelism", worker.breakdown.insufficient_parallelism_user,
                          0.3, "absent while the master computes alone"));
  const Characteristics rank = program_of(tree, Unit::rank);
  EXPECT_TRUE(seconds_are("the rank's communication", rank.communication, 0.3, "the master's 0.3 s"));
  EXPECT_TRUE(seconds_are("the rank's insufficient parallelism", rank.insufficient_parallelism, 0.15));
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(rank), 0));
  const Characteristics threads = program_of(tree, Unit::thread);
  EXPECT_TRUE(seconds_are("the threads' communication", threads.communication, 0.6));
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(threads), 0));
}

TEST(analysis_mpi_attribution, ARanksPotentialLossesAreItsThreadsSumNotTheirMean) {
  std::vector<format::Profile> profiles = two_ranks_at_a_barrier();
  // Rank 0 gets a second thread that makes no MPI call.
  format::Thread second = profiles[0].threads[0];
  second.index = 1;
  second.nodes.resize(1);
  second.nodes[0].operations.clear();
  profiles[0].threads.push_back(second);
  profiles[0].process.thread_count = 2;
  const IntervalTree tree = analysed(profiles);
  const std::vector<ProcessorInput> ranks = processor_inputs(tree, tree.intervals[0], Unit::rank);
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_TRUE(seconds_are("rank 0's synchronization", ranks[0].breakdown.synchronization, 0.5,
                          "its master's, not halved by a thread that had none"));
}

}  // namespace
}  // namespace parperf::analysis
