// The analysis as one pure function (analysis.hpp) and its judgments as typed findings
// (findings.hpp): what kind of loss, on which evidence, and how much fixing it would recover.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/findings.hpp"
#include "format/records.hpp"
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

TEST(analysis_findings, CompareValuesKeepsTheLowestProcessorOnTies) {
  const Extreme e = compare_values({{2, 0.5}, {0, 0.5}, {1, 0.9}});
  EXPECT_EQ(e.min_processor, 0);
  EXPECT_EQ(e.max_processor, 1);
  EXPECT_NEAR(e.mean, (0.5 + 0.5 + 0.9) / 3, 1e-12);
  EXPECT_FALSE(compare_values({}).min_processor.has_value());
}

}  // namespace
}  // namespace parperf::analysis
