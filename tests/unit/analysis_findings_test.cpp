// The analysis as one pure function (analysis.hpp) and its judgments as typed findings
// (findings.hpp): what kind of loss, on which evidence, and how much fixing it would recover.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/findings.hpp"
#include "format/records.hpp"
#include "unit/finding_samples.hpp"
#include "unit/profile_values.hpp"

namespace parperf::analysis {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

// One process, two threads in a "work" interval: thread 0 for 60 ms, thread 1 for 180 ms, in a
// program of 200 ms each. Thread 0 waits 120 ms for thread 1: idle time, from load imbalance.
RunData imbalanced_run() {
  format::Profile p;
  p.process.rank = 0;
  p.process.world_size = 1;
  p.process.thread_count = 2;
  p.sites = {parperf::test::make_site(1, 0, 0, "program", ""),
             parperf::test::make_site(2, 1, 7, "work", "work.cpp")};
  for (std::uint32_t thread : {0u, 1u}) {
    format::Thread t;
    t.index = thread;
    format::Node root;
    root.site = 1;
    root.count = 1;
    root.sum_ns = 200 * kMs;
    format::Node work;
    work.parent = 0;
    work.site = 2;
    work.count = 1;
    work.sum_ns = (thread == 0 ? 60 : 180) * kMs;
    t.nodes = {root, work};
    p.threads.push_back(t);
  }
  RunData run;
  run.profiles = {p};
  run.profile_files = {"profile.0.ppf"};
  run.world_size = 1;
  return run;
}

TEST(analysis_findings, AnalyzeDescribesEveryIntervalOfItsTree) {
  const Analysis analysis = analyze(imbalanced_run());
  EXPECT_EQ(analysis.unit, Unit::thread) << "one process: its threads are the processors";
  ASSERT_EQ(analysis.intervals.size(), analysis.tree().intervals.size());
  ASSERT_EQ(analysis.intervals.size(), 2u);
  const IntervalAnalysis& work = analysis.intervals[1];
  EXPECT_NEAR(work.characteristics.idle_time, 0.120, 1e-9);
  EXPECT_EQ(work.processors.size(), 2u);
  EXPECT_EQ(work.comparative[Figure::execution_time].max_processor, 1);
  EXPECT_FALSE(analysis.rank_tree.has_value());
  EXPECT_FALSE(analysis.slowest_rank.has_value()) << "a single process has no slowest rank";
}

TEST(analysis_findings, IdleTimeFromImbalanceIsAFindingWithItsProcessorsAndGain) {
  const Analysis analysis = analyze(imbalanced_run());
  const std::vector<Finding>& diagnosis = analysis.intervals[1].diagnosis;
  ASSERT_FALSE(diagnosis.empty());
  const Finding& idle = diagnosis[0];
  EXPECT_EQ(idle.kind, FindingKind::idle_between_processors);
  EXPECT_EQ(idle.fastest_processor, 0);
  EXPECT_EQ(idle.slowest_processor, 1);
  EXPECT_NEAR(idle.execution_spread, 0.120, 1e-9) << "thread 0 finishes 120 ms before thread 1";
  EXPECT_TRUE(idle.imbalance_explains_idle) << "their productive times differ as much";
  EXPECT_NEAR(idle.share, 1.0 / 3.0, 1e-9) << "120 ms idle of 360 ms total";
  EXPECT_NEAR(idle.estimated_gain, 0.120, 1e-9) << "balancing the work recovers the idle time";
}

TEST(analysis_findings, AnUnknownViewRankIsRefused) {
  AnalysisOptions options;
  options.rank = 3;
  EXPECT_THROW(analyze(imbalanced_run(), options), std::invalid_argument);
}

TEST(analysis_findings, NoLossAndNothingExecutedAreFindingsToo) {
  Characteristics c;
  EXPECT_EQ(diagnose(c, {}).at(0).kind, FindingKind::not_executed);
  c.processors = 1;
  c.total_time = 1;
  c.productive_time = 1;
  c.efficiency = 1;
  const std::vector<Finding> none = diagnose(c, {});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].kind, FindingKind::no_significant_loss);
  EXPECT_DOUBLE_EQ(none[0].efficiency, 1.0);
}

TEST(analysis_findings, ACriticalSectionThatLosesTimeNamesItsRemedy) {
  Characteristics program;
  program.total_time = 1.0;
  SrcPoint critical;
  critical.identity.kind = static_cast<std::uint32_t>(format::SiteKind::omp_critical);
  critical.count = 100;
  critical.wait = 0.3;
  const std::vector<Finding> findings = main_findings(program, {critical});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::critical_contention);
  EXPECT_EQ(findings[0].remedy, Remedy::shorten_critical_section);
  EXPECT_NEAR(findings[0].share, 0.3, 1e-12);
  EXPECT_NEAR(findings[0].estimated_gain, 0.3, 1e-12) << "the time waited to enter";
  ASSERT_TRUE(findings[0].src_point.has_value());
  EXPECT_EQ(findings[0].src_point->count, 100u);
}

TEST(analysis_findings, PointsBelowOnePercentAreNotFindings) {
  Characteristics program;
  program.total_time = 10.0;
  SrcPoint barrier;
  barrier.identity.kind = static_cast<std::uint32_t>(format::SiteKind::omp_barrier);
  barrier.wait = 0.05;  // 0.5 % of the total
  EXPECT_TRUE(main_findings(program, {barrier}).empty());
}

using test::four_thread_program;
using test::loop_barrier;

// The case: on a loaded machine a benchmark lost 15 % at three implicit barriers while the
// threads' work there was balanced (max/mean 1.07) and the OS CPU time stayed well below the wall
// time. The cause is preemption; "unbalanced work" would contradict the 1.07 printed beside it.
TEST(analysis_findings, BalancedWorkWithThreadsOffTheCpuIsPreemptionNotImbalance) {
  const Characteristics program = four_thread_program(4.0);
  const std::vector<SrcPoint> barriers = {loop_barrier(10, 0.2, 1.07, 0.7), loop_barrier(20, 0.2, 1.07, 0.7),
                                          loop_barrier(30, 0.2, 1.07, 0.7)};
  const std::vector<Finding> findings = main_findings(program, barriers);
  ASSERT_EQ(findings.size(), 3u);
  double share = 0;
  for (const Finding& f : findings) {
    EXPECT_EQ(f.kind, FindingKind::preemption)
        << "barrier at line " << f.src_point->identity.line << ": work max/mean 1.07 is balanced and 30 % of "
        << "the region's time was off the CPU, yet the finding is not preemption";
    EXPECT_NE(f.kind, FindingKind::unbalanced_barrier);
    EXPECT_EQ(f.remedy, Remedy::fewer_threads_than_cores);
    EXPECT_DOUBLE_EQ(f.evidence_value("max_over_mean"), 1.07);
    EXPECT_NEAR(f.evidence_value("on_cpu_share"), 0.7, 1e-12);
    EXPECT_NEAR(f.evidence_value("off_cpu"), 1.2, 1e-12) << "4 s of wall time, 2.8 s on a CPU";
    EXPECT_NEAR(f.estimated_gain, 0.2, 1e-12);
    share += f.share;
  }
  EXPECT_NEAR(share, 0.15, 1e-12) << "0.6 s of 4 s lost at the three barriers";
}

TEST(analysis_findings, UnbalancedWorkBeforeABarrierIsImbalanceWithItsRatio) {
  const std::vector<Finding> findings =
      main_findings(four_thread_program(4.0), {loop_barrier(10, 0.6, 2.0, 0.7)});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::unbalanced_barrier)
      << "the busiest thread worked twice the mean: that is the cause, whatever the CPU times";
  EXPECT_EQ(findings[0].remedy, Remedy::dynamic_schedule);
  EXPECT_DOUBLE_EQ(findings[0].evidence_value("max_over_mean"), 2.0);
}

TEST(analysis_findings, BalancedWorkOnTheCpuIsALateArrivalNotImbalance) {
  const std::vector<Finding> findings =
      main_findings(four_thread_program(4.0), {loop_barrier(10, 0.6, 1.05, 0.98)});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::late_arrival_barrier)
      << "balanced work, threads on the CPU: neither imbalance nor preemption is shown";
  EXPECT_EQ(findings[0].remedy, Remedy::none);
}

TEST(analysis_findings, CpuTimesReadTooRarelyAreNoEvidenceOfPreemption) {
  SrcPoint barrier = loop_barrier(10, 0.6, 1.05, 0.5);
  barrier.enclosing_entries = 4000;  // 1 ms entries: below what the CPU time reads resolve
  const std::vector<Finding> findings = main_findings(four_thread_program(4.0), {barrier});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::late_arrival_barrier);
}

// An interval's diagnosis: 15 % desync, productive times balanced (1.07), 70 % on a CPU.
TEST(analysis_findings, AnIntervalsWaitWithBalancedWorkOffTheCpuIsPreemption) {
  Characteristics c = four_thread_program(4.0);
  c.execution_time = 1.0;
  c.desync = 0.6;
  c.lost_time = 0.6;
  c.productive_time = 3.4;
  c.os_cpu_user = 2.8;
  Comparative cmp;
  auto set = [&](Figure f, double max, double mean) {
    cmp.extremes[static_cast<std::size_t>(f)] = {mean, 0, max, 1, mean};
  };
  set(Figure::execution_time, 1.0, 1.0);
  set(Figure::entries, 1, 1);
  set(Figure::productive_time, 0.85 * 1.07, 0.85);
  const std::vector<Finding> diagnosis = diagnose(c, cmp);
  ASSERT_FALSE(diagnosis.empty());
  EXPECT_EQ(diagnosis[0].kind, FindingKind::preemption);
  EXPECT_EQ(diagnosis[0].explains, FindingKind::desync);
  EXPECT_NEAR(diagnosis[0].share, 0.15, 1e-12);
  EXPECT_NEAR(diagnosis[0].evidence_value("productive_max_over_mean"), 1.07, 1e-12);
  EXPECT_NEAR(diagnosis[0].on_cpu_share, 0.7, 1e-12);

  set(Figure::productive_time, 0.85 * 2.0, 0.85);
  EXPECT_EQ(diagnose(c, cmp)[0].kind, FindingKind::desync) << "productive max/mean 2.0: unequal work";
}

// Sequential code: 4 threads, 1 s of serial code leaves 3 threads waiting (3 s of insufficient
// parallelism), 5 s of work in all: f = 0.2, speedup at most 5x at any count.
TEST(analysis_findings, SerialCodeBoundsTheSpeedupByAmdahlAndNamesItsSections) {
  Characteristics program = four_thread_program(8.0);
  program.insufficient_parallelism = 3.0;
  program.productive_time = 5.0;
  const std::vector<SerialSection> sections = {
      {{static_cast<std::uint32_t>(format::SiteKind::user), "init", "f.c", 10, 0, 40}, 1.0}};
  const std::vector<Finding> findings = main_findings(program, {}, {}, sections);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::amdahl_limit);
  EXPECT_NEAR(findings[0].evidence_value("serial_time"), 1.0, 1e-12) << "3 s idle over 3 waiting threads";
  EXPECT_NEAR(findings[0].evidence_value("serial_fraction"), 0.2, 1e-12);
  EXPECT_NEAR(findings[0].evidence_value("speedup_limit"), 5.0, 1e-12);
  EXPECT_NEAR(findings[0].share, 3.0 / 8.0, 1e-12);
  ASSERT_EQ(findings[0].serial_sections.size(), 1u);
  EXPECT_EQ(findings[0].serial_sections[0].identity.name, "init");

  program.threads = 16;  // processes as processors: their IP is averaged over threads, no Amdahl reading
  EXPECT_EQ(main_findings(program, {})[0].kind, FindingKind::sequential_code);
}

TEST(analysis_findings, SerialSectionsAreTheOutermostIntervalsOneThreadRanOutsideRegions) {
  const Analysis analysis = analyze(imbalanced_run());
  std::vector<Characteristics> characteristics;
  for (const IntervalAnalysis& i : analysis.intervals) characteristics.push_back(i.characteristics);
  EXPECT_TRUE(serial_sections(analysis.tree(), characteristics).empty()) << "both threads ran 'work'";
  characteristics[1].processors = 1;
  const std::vector<SerialSection> sections = serial_sections(analysis.tree(), characteristics);
  ASSERT_EQ(sections.size(), 1u);
  EXPECT_EQ(sections[0].identity.name, "work");
}

// A rank that arrives last at a collective in most matched instances is named with that share.
TEST(analysis_findings, TheRankThatArrivesLastAtACollectiveMostOftenIsNamed) {
  SrcPoint allreduce;
  allreduce.identity = {
      static_cast<std::uint32_t>(format::SiteKind::mpi_reduction), "MPI_Allreduce", "g.c", 88, "", 0};
  allreduce.wait = 0.5;
  allreduce.synchronization = 0.6;
  allreduce.arrival_spread = 0.05;
  for (std::int64_t rank = 0; rank < 4; ++rank)
    allreduce.ranks.push_back(
        RankAtSite{.rank = rank, .synchronization = 0.2, .matched_instances = 40, .last_arrivals = 0});
  allreduce.ranks[3].last_arrivals = 36;
  allreduce.ranks[1].last_arrivals = 4;
  const std::vector<Finding> findings = main_findings(four_thread_program(4.0), {allreduce});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::mpi_collective_arrival);
  ASSERT_TRUE(findings[0].late_rank.has_value());
  EXPECT_EQ(findings[0].late_rank->rank, 3);
  EXPECT_NEAR(findings[0].evidence_value("last_arrival_share"), 0.9, 1e-12) << "36 of 40 instances";
}

TEST(analysis_findings, StartupIsAFindingWhenItTakesATenthOfTheRun) {
  Characteristics program = four_thread_program(6.0);
  program.startup = 4.0;  // 40 % of 10 s
  SrcPoint init;
  init.identity = {
      static_cast<std::uint32_t>(format::SiteKind::mpi_management), "MPI_Init", "app.c", 5, "", 0};
  init.total = 4.0;
  std::vector<Finding> findings = main_findings(program, {init});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::startup);
  EXPECT_NEAR(findings[0].share, 0.4, 1e-12);
  ASSERT_TRUE(findings[0].startup_call.has_value());
  EXPECT_EQ(findings[0].startup_call->name, "MPI_Init");
  program.startup = 0.5;  // 7.7 %: a fixed cost the run amortizes
  EXPECT_TRUE(main_findings(program, {init}).empty());
}

TEST(analysis_findings, CommunicatorCreationTakingATenthOfTheRunIsSetUpNotWork) {
  Characteristics program = four_thread_program(4.0);
  SrcPoint split;
  split.identity = {
      static_cast<std::uint32_t>(format::SiteKind::mpi_management), "MPI_Comm_split", "app.c", 12, "", 0};
  split.total = 0.8;
  split.count = 4;
  const std::vector<Finding> findings = main_findings(program, {split});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::mpi_setup);
  EXPECT_NEAR(findings[0].share, 0.2, 1e-12);
  EXPECT_NEAR(findings[0].evidence_value("setup_time"), 0.8, 1e-12);
}

TEST(analysis_findings, CompareValuesKeepsTheLowestProcessorOnTies) {
  const Extreme e = compare_values({{2, 0.5}, {0, 0.5}, {1, 0.9}});
  EXPECT_EQ(e.min_processor, 0);
  EXPECT_EQ(e.max_processor, 1);
  EXPECT_NEAR(e.mean, (0.5 + 0.5 + 0.9) / 3, 1e-12);
  EXPECT_FALSE(compare_values({}).min_processor.has_value());
}

}  // namespace
}  // namespace parperf::analysis

namespace parperf::analysis {
namespace {

// The imbalanced run whose threads 0 and 1 had `cpu0` and `cpu1` ms of OS CPU time in the program,
// on a host with `cores` of `online` cores allowed.
RunData run_with_cpu_time(std::uint64_t cpu0, std::uint64_t cpu1, std::int64_t online, std::int64_t cores) {
  RunData run = imbalanced_run();
  run.profiles[0].threads[0].nodes[0].os_user_self_ns = cpu0 * kMs;
  run.profiles[0].threads[1].nodes[0].os_sys_self_ns = cpu1 * kMs;
  format::RunInfo info;
  info.cores = format::HostCores{.online = online, .allowed = cores};
  run.run_info = info;
  return run;
}

// The imbalanced run whose two threads were on a CPU only 20 ms and 30 ms of their 200 ms in the
// program: 50 ms of 400 ms, 12.5 %, on a host of 8 cores. Two threads on 8 cores did not wait for a
// core: they slept or blocked. Said, after the findings it explains.
TEST(analysis_findings, ThreadsThatBlockedAreTheLastFindingWithTheCores) {
  const Analysis analysis = analyze(run_with_cpu_time(20, 30, 8, 8));
  ASSERT_GT(analysis.findings.size(), 1u) << "the idle time of \"work\" is a finding too";
  const Finding& last = analysis.findings.back();
  ASSERT_EQ(last.kind, FindingKind::threads_off_cpu)
      << "the last finding is not that the threads were off the CPU";
  EXPECT_NEAR(last.on_cpu_share, 0.125, 1e-9) << "50 ms of CPU time in 400 ms of thread time";
  EXPECT_EQ(last.evidence_value("threads"), 2);
  EXPECT_EQ(last.evidence_value("cores"), 8);
  EXPECT_NEAR(last.evidence_value("cores_busy"), 0.25, 1e-9) << "50 ms of CPU time in the program's 200 ms";
  EXPECT_EQ(last.remedy, Remedy::none) << "two threads on eight cores were not short of cores";
}

// The same two threads on one core, 80 ms of CPU time each: 160 ms of 400 ms ran on a CPU (40 %),
// and the one core was busy 160 ms of the program's 200 ms. Oversubscribed: the first finding, as
// its 60 % off the CPU is more than the idle time's share.
TEST(analysis_findings, OversubscribedThreadsAreTheFirstFinding) {
  const Analysis analysis = analyze(run_with_cpu_time(80, 80, 4, 1));
  ASSERT_FALSE(analysis.findings.empty());
  const Finding& first = analysis.findings.front();
  ASSERT_EQ(first.kind, FindingKind::threads_off_cpu) << "the first finding is not the oversubscription";
  EXPECT_NEAR(first.share, 0.6, 1e-9);
  EXPECT_EQ(first.remedy, Remedy::fewer_threads_than_cores);
  EXPECT_EQ(first.evidence_value("cores"), 1);
}

// With as much CPU time as wall-clock time the threads ran throughout: no such finding.
TEST(analysis_findings, ThreadsThatRanThroughoutGiveNoOffCpuFinding) {
  for (const Finding& f : analyze(run_with_cpu_time(200, 190, 8, 8)).findings)
    EXPECT_NE(f.kind, FindingKind::threads_off_cpu);
}

}  // namespace
}  // namespace parperf::analysis
