// Sampled causes (analysis/sampled_cause.hpp, sampled_findings.hpp): which function the late
// processors spend their extra time in, on hand-built sample profiles whose answer is known.
#include <gtest/gtest.h>

#include "analysis/finding_thresholds.hpp"
#include "analysis/sampled_cause.hpp"
#include "analysis/sampled_findings.hpp"
#include "format/records.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

constexpr std::uint32_t kind(SiteKind k) { return static_cast<std::uint32_t>(k); }

// A program (interval 0) holding a parallel region (1) at late.c:40 whose join barrier threads
// 1..3 waited at `waits[t]` seconds; thread 0 none.
IntervalTree region_tree(const std::vector<double>& waits) {
  IntervalTree tree;
  tree.threads_per_rank[0] = static_cast<std::uint32_t>(waits.size());
  MergedInterval program;
  program.identity = {kind(SiteKind::program), "program", "", 0};
  program.children = {1};
  MergedInterval region;
  region.identity = {kind(SiteKind::omp_parallel), "parallel", "late.c", 40};
  region.level = 1;
  for (std::uint32_t t = 0; t < waits.size(); ++t) {
    tree.locations.push_back({0, t});
    LocationStats s;
    s.location = {0, t};
    s.count = 4;
    OperationFigures join;
    join.identity = {kind(SiteKind::omp_join_barrier), "join barrier", "late.c", 40, "", 0};
    join.count = 4;
    join.sync_ns = static_cast<std::uint64_t>(waits[t] * 1e9);
    s.operations.push_back(join);
    region.locations.push_back(s);
  }
  tree.intervals = {program, region};
  return tree;
}

// Per thread: (function, self samples) in the region.
SampleProfile region_samples(const std::vector<std::map<std::string, std::uint64_t>>& per_thread,
                             bool wall_clock = false) {
  SampleProfile samples;
  samples.sampled = true;
  samples.wall_clock = wall_clock;
  IntervalSamples region;
  region.interval = 1;
  std::map<std::string, std::uint64_t> all;
  for (std::size_t t = 0; t < per_thread.size(); ++t) {
    ProcessorSamples p{static_cast<std::int64_t>(t), 0, per_thread[t]};
    for (const auto& [function, self] : per_thread[t]) p.samples += self, all[function] += self;
    region.samples += p.samples;
    region.processor_samples.push_back(p);
  }
  for (const auto& [function, self] : all)
    region.functions.push_back({function, "late.c", function == "f" ? 12 : 30, self, self, {}, {}});
  samples.intervals = {region};
  return samples;
}

Finding join_barrier_finding(const IntervalTree& tree) {
  Finding f;
  f.kind = FindingKind::unbalanced_barrier;
  SrcPoint p;
  p.identity = tree.intervals[1].locations[0].operations[0].identity;
  p.interval = tree.intervals[1].identity;
  f.src_point = p;
  return f;
}

TEST(SampledCause, SplitsProcessorsAtTheMidpointOfTheirWaits) {
  const WaitGroups g = split_by_wait({{0, 0.01}, {1, 0.6}, {2, 0.55}, {3, 0.62}});
  EXPECT_EQ(g.late, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(g.waiting, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_TRUE(split_by_wait({{0, 0.2}, {1, 0.2}}).late.empty()) << "equal waits: no one is late";
}

// Wall-clock samples: thread 0 spends 800 of its 1000 samples in f, the others 5 of theirs in f and
// the rest in g and in the runtime's barrier: f is named, with both shares, and the runtime function
// where they wait.
TEST(SampledCause, NamesTheFunctionTheLateThreadSpendsItsExtraTimeIn) {
  const IntervalTree tree = region_tree({0.0, 0.6, 0.6, 0.6});
  std::vector<std::map<std::string, std::uint64_t>> per_thread = {{{"f", 800}, {"g", 200}}};
  for (int t = 1; t < 4; ++t) per_thread.push_back({{"f", 5}, {"g", 200}, {"__kmp_wait", 795}});
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, region_samples(per_thread, true), Unit::thread);
  ASSERT_TRUE(findings[0].sampled_cause) << "thread 0 spends 80 % in f, the others 0.5 %";
  const SampledCause& c = *findings[0].sampled_cause;
  EXPECT_EQ(c.late, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(c.waiting, (std::vector<std::int64_t>{1, 2, 3}));
  ASSERT_EQ(c.functions.size(), 1u) << "g is common work (20 % each), not a cause";
  EXPECT_EQ(c.functions[0].function, "f");
  EXPECT_EQ(c.functions[0].line, 12);
  EXPECT_DOUBLE_EQ(c.functions[0].late_share, 0.8);
  EXPECT_DOUBLE_EQ(c.functions[0].waiting_share, 15.0 / 3000.0);
  ASSERT_TRUE(c.waiting_in) << "the waiting threads sit in the runtime's barrier";
  EXPECT_EQ(c.waiting_in->function, "__kmp_wait");
  EXPECT_EQ(c.intervals, (std::vector<std::size_t>{1}));
  EXPECT_DOUBLE_EQ(findings[0].evidence_value("function_late_share"), 0.8);
  EXPECT_DOUBLE_EQ(findings[0].evidence_value("late_samples"), 1000);
}

// Balanced work: every thread spends the same share in the same function; nothing is blamed.
TEST(SampledCause, BlamesNothingWhenTheThreadsRunTheSameFunctions) {
  const IntervalTree tree = region_tree({0.0, 0.05, 0.04, 0.05});
  std::vector<std::map<std::string, std::uint64_t>> per_thread;
  for (int t = 0; t < 4; ++t) per_thread.push_back({{"g", 180}, {"__kmp_wait", t == 0 ? 5 : 20}});
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, region_samples(per_thread), Unit::thread);
  EXPECT_FALSE(findings[0].sampled_cause);
  EXPECT_DOUBLE_EQ(findings[0].evidence_value("late_samples"), 0) << "no sampled evidence added";
}

// Too few samples of the late thread to tell a share from noise: say nothing.
TEST(SampledCause, SaysNothingOnTooFewSamples) {
  const IntervalTree tree = region_tree({0.0, 0.6});
  const std::uint64_t few = kMinSamplesToBlame - 1;
  std::vector<std::map<std::string, std::uint64_t>> per_thread = {{{"f", few}}, {{"__kmp_wait", 500}}};
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, region_samples(per_thread), Unit::thread);
  EXPECT_FALSE(findings[0].sampled_cause) << few << " samples are below kMinSamplesToBlame";
}

// CPU-time samples miss a thread that sleeps while it waits: its own work (g, all of its samples) must
// not be taken for the place it waits in.
TEST(SampledCause, CpuTimeSamplesDoNotSayWhereTheOthersWait) {
  const IntervalTree tree = region_tree({0.0, 0.6, 0.6});
  std::vector<std::map<std::string, std::uint64_t>> per_thread = {
      {{"f", 800}, {"g", 200}}, {{"g", 200}}, {{"g", 200}}};
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, region_samples(per_thread), Unit::thread);
  ASSERT_TRUE(findings[0].sampled_cause);
  EXPECT_EQ(findings[0].sampled_cause->functions[0].function, "f");
  EXPECT_FALSE(findings[0].sampled_cause->waiting_in) << "g is the waiting threads' work, not their wait";
}

// Wall-clock samples of waiting threads whose own work was stretched (preempted): g takes 60 % of
// their samples against 20 % of the late thread's, yet the late thread runs it too, so it is work,
// not the wait; the wait is __kmp_wait, where only they are.
TEST(SampledCause, TheWaitIsWhereOnlyTheWaitingThreadsAre) {
  const IntervalTree tree = region_tree({0.0, 0.6, 0.6});
  std::vector<std::map<std::string, std::uint64_t>> per_thread = {
      {{"f", 800}, {"g", 200}}, {{"g", 600}, {"__kmp_wait", 400}}, {{"g", 600}, {"__kmp_wait", 400}}};
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, region_samples(per_thread, true), Unit::thread);
  ASSERT_TRUE(findings[0].sampled_cause);
  ASSERT_TRUE(findings[0].sampled_cause->waiting_in);
  EXPECT_EQ(findings[0].sampled_cause->waiting_in->function, "__kmp_wait")
      << "g is work both groups run (40 points more of the waiting threads' samples)";
}

// CPU-time samples of threads that slept while they waited: none; f is still the late thread's work.
TEST(SampledCause, WaitingThreadsWithoutSamplesStillLetTheLateOnesBeNamed) {
  const IntervalTree tree = region_tree({0.0, 0.6, 0.6});
  std::vector<std::map<std::string, std::uint64_t>> per_thread = {{{"f", 300}, {"g", 100}}, {}, {}};
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, region_samples(per_thread), Unit::thread);
  ASSERT_TRUE(findings[0].sampled_cause);
  EXPECT_EQ(findings[0].sampled_cause->waiting_samples, 0u);
  // g too: the waiting threads have no samples at all, so 25 % of the late one's is 25 points more.
  EXPECT_EQ(findings[0].sampled_cause->functions[0].function, "f");
  EXPECT_FALSE(findings[0].sampled_cause->waiting_in);
}

// Samples in a nested interval (a loop construct inside the region) count for the region.
TEST(SampledCause, ComparesTheSamplesOfNestedIntervalsToo) {
  IntervalTree tree = region_tree({0.0, 0.6});
  MergedInterval loop;
  loop.identity = {kind(SiteKind::omp_loop), "loop", "late.c", 42};
  loop.parent = 1;
  tree.intervals[1].children = {2};
  tree.intervals.push_back(loop);
  SampleProfile samples = region_samples({{{"f", 400}, {"g", 100}}, {{"g", 100}, {"__kmp_wait", 400}}});
  samples.intervals[0].interval = 2;
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, samples, Unit::thread);
  ASSERT_TRUE(findings[0].sampled_cause);
  EXPECT_EQ(findings[0].sampled_cause->functions[0].function, "f");
}

// An MPI collective's late rank against the other ranks at the call.
TEST(SampledCause, ComparesTheLateRankOfACollectiveWithTheOthers) {
  IntervalTree tree;
  for (std::int64_t r = 0; r < 3; ++r) tree.threads_per_rank[r] = 1, tree.locations.push_back({r, 0});
  MergedInterval program;
  program.identity = {kind(SiteKind::program), "program", "", 0};
  tree.intervals = {program};
  Finding f;
  f.kind = FindingKind::mpi_collective_arrival;
  SrcPoint p;
  p.interval = program.identity;
  p.ranks = {{.rank = 0}, {.rank = 1}, {.rank = 2}};
  f.src_point = p;
  f.late_rank = RankAtSite{.rank = 2};
  SampleProfile samples = region_samples({{{"g", 100}, {"MPI_Allreduce", 300}},
                                          {{"g", 100}, {"MPI_Allreduce", 300}},
                                          {{"g", 100}, {"solve", 300}}},
                                         true);
  samples.intervals[0].interval = 0;
  std::vector<Finding> findings{f};
  add_sampled_causes(findings, tree, {}, samples, Unit::rank);
  ASSERT_TRUE(findings[0].sampled_cause);
  EXPECT_EQ(findings[0].sampled_cause->late, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(findings[0].sampled_cause->functions[0].function, "solve");
  ASSERT_TRUE(findings[0].sampled_cause->waiting_in);
  EXPECT_EQ(findings[0].sampled_cause->waiting_in->function, "MPI_Allreduce");
}

// A rank waiting in MPI_Recv for its partner: the partner is the late one.
TEST(SampledCause, ComparesTheLatePartnerWithTheRankThatWaitsForIt) {
  IntervalTree tree;
  for (std::int64_t r = 0; r < 2; ++r) tree.threads_per_rank[r] = 1, tree.locations.push_back({r, 0});
  MergedInterval program;
  program.identity = {kind(SiteKind::program), "program", "", 0};
  tree.intervals = {program};
  Finding f;
  f.kind = FindingKind::mpi_waits_for_partner;
  SrcPoint p;
  p.interval = program.identity;
  f.src_point = p;
  f.waiting_rank = RankAtSite{.rank = 1, .partner_min = 0, .partner_max = 0};
  SampleProfile samples = region_samples({{{"produce", 400}}, {{"MPI_Recv", 300}, {"consume", 100}}}, true);
  samples.intervals[0].interval = 0;
  std::vector<Finding> findings{f};
  add_sampled_causes(findings, tree, {}, samples, Unit::rank);
  ASSERT_TRUE(findings[0].sampled_cause);
  EXPECT_EQ(findings[0].sampled_cause->late, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(findings[0].sampled_cause->waiting, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(findings[0].sampled_cause->functions[0].function, "produce");
  ASSERT_TRUE(findings[0].sampled_cause->waiting_in);
  EXPECT_EQ(findings[0].sampled_cause->waiting_in->function, "MPI_Recv");
}

// An unbalanced loop: the processor with the most iteration time against the others, in the loop.
TEST(SampledCause, ComparesTheSlowestProcessorsOfAnUnbalancedLoop) {
  IntervalTree tree = region_tree({0.0, 0.0, 0.0});
  Finding f;
  f.kind = FindingKind::unbalanced_loop;
  LoopBalance loop;
  loop.interval = 1;
  loop.processors = {{0, 10, 0.3}, {1, 10, 0.1}, {2, 10, 0.12}};
  loop.processor_max = 0.3;
  f.loop = loop;
  std::vector<Finding> findings{f};
  add_sampled_causes(findings, tree, {},
                     region_samples({{{"heavy", 200}, {"light", 100}}, {{"light", 100}}, {{"light", 120}}}),
                     Unit::thread);
  ASSERT_TRUE(findings[0].sampled_cause);
  EXPECT_EQ(findings[0].sampled_cause->late, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(findings[0].sampled_cause->functions[0].function, "heavy");
  EXPECT_EQ(findings[0].sampled_cause->functions.size(), 1u) << "light is every processor's work";
}

// An unsampled run adds nothing.
TEST(SampledCause, AnUnsampledRunAddsNothing) {
  const IntervalTree tree = region_tree({0.0, 0.6});
  std::vector<Finding> findings{join_barrier_finding(tree)};
  add_sampled_causes(findings, tree, {}, SampleProfile{}, Unit::thread);
  EXPECT_FALSE(findings[0].sampled_cause);
}

}  // namespace
}  // namespace parperf::analysis
