// Loop balance (loop_balance.hpp) on hand-built profiles whose answers follow from their
// construction: a balanced loop, a loop whose iteration i takes (i + 1) ms, branches of known
// frequencies, two threads sharing a loop unevenly, nested loops, and a profile of format 3.2.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/loop_balance.hpp"
#include "format/iteration_buckets.hpp"
#include "unit/profile_values.hpp"

namespace parperf::analysis {
namespace {

constexpr std::uint64_t kMs = 1'000'000;
constexpr std::uint32_t kSequentialLoop = 3;
constexpr std::uint32_t kParallelLoop = 2;
constexpr std::uint32_t kBranch = 4;

// A node whose loop iterations took `times` (ns), with their distribution as the runtime records it.
format::Node loop_node(std::uint32_t parent, std::uint32_t site, const std::vector<std::uint64_t>& times,
                       bool with_histogram = true) {
  format::Node n;
  n.parent = parent;
  n.site = site;
  n.count = 1;
  format::IterationHistogram h;
  __extension__ using u128 = unsigned __int128;
  u128 squares = 0;
  for (std::uint64_t t : times) {
    format::DurationStats one{1, t, t, t};
    format::add_durations(n.iterations, one);
    h.buckets[format::iteration_bucket(t)] += 1;
    squares += static_cast<u128>(t) * t;
  }
  n.sum_ns = n.iterations.sum_ns;
  h.sum_squares_high = static_cast<std::uint64_t>(squares >> 64);
  h.sum_squares_low = static_cast<std::uint64_t>(squares);
  if (with_histogram) n.iteration_histogram = h;
  return n;
}

format::Node entries(std::uint32_t parent, std::uint32_t site, std::uint64_t count, std::uint64_t each_ns) {
  format::Node n;
  n.parent = parent;
  n.site = site;
  n.count = count;
  n.sum_ns = count * each_ns;
  n.min_ns = n.max_ns = each_ns;
  return n;
}

RunData run_of(std::vector<format::Site> sites, std::vector<std::vector<format::Node>> threads) {
  format::Profile p;
  p.process.world_size = 1;
  p.process.thread_count = static_cast<std::uint32_t>(threads.size());
  p.sites = std::move(sites);
  p.sites.push_back(parperf::test::make_site(1, 0, 0, "program", ""));
  for (std::uint32_t i = 0; i < threads.size(); ++i) {
    format::Thread t;
    t.index = i;
    format::Node root;
    root.site = 1;
    root.count = 1;
    root.sum_ns = 1000 * kMs;
    t.nodes.push_back(root);
    for (const format::Node& n : threads[i]) t.nodes.push_back(n);
    p.threads.push_back(std::move(t));
  }
  RunData run;
  run.profiles = {p};
  run.profile_files = {"profile.0.ppf"};
  run.world_size = 1;
  return run;
}

std::vector<std::uint64_t> growing_times() {  // iteration i takes (i + 1) ms, i = 0..19
  std::vector<std::uint64_t> times;
  for (std::uint64_t i = 0; i < 20; ++i) times.push_back((i + 1) * kMs);
  return times;
}

const LoopBalance& only_loop(const Analysis& a) {
  EXPECT_EQ(a.loops.size(), 1u);
  return *a.intervals.at(a.loops.at(0)).loop_balance;
}

TEST(LoopBalance, EqualIterationsAreBalancedWithNoSpread) {
  const Analysis a = analyze(run_of({parperf::test::make_site(2, kSequentialLoop, 10, "even", "l.c")},
                                    {{loop_node(0, 2, std::vector<std::uint64_t>(10, 10 * kMs))}}));
  const LoopBalance& loop = only_loop(a);
  EXPECT_EQ(loop.count, 10u);
  EXPECT_NEAR(loop.mean, 0.010, 1e-12);
  EXPECT_NEAR(loop.degree, 0.0, 1e-12) << "every iteration takes the mean";
  EXPECT_TRUE(loop.balanced);
  ASSERT_TRUE(loop.std_dev);
  EXPECT_NEAR(*loop.std_dev, 0.0, 1e-9);
  ASSERT_TRUE(loop.percentiles);
  EXPECT_NEAR(loop.percentiles->p50, 0.010, 1e-12) << "the bucket is narrowed to [min, max] = 10 ms";
  EXPECT_NEAR(loop.percentiles->p99, 0.010, 1e-12);
  EXPECT_FALSE(unbalanced_loop(loop, 1.0).has_value()) << "a balanced loop is no finding";
}

TEST(LoopBalance, IterationsGrowingByAMillisecondAreUnbalancedByNineAndAHalf) {
  const Analysis a = analyze(run_of({parperf::test::make_site(2, kSequentialLoop, 40, "growing", "f.c")},
                                    {{loop_node(0, 2, growing_times())}}));
  const LoopBalance& loop = only_loop(a);
  EXPECT_EQ(loop.count, 20u);
  EXPECT_NEAR(loop.mean, 0.0105, 1e-12) << "(1 + ... + 20) ms / 20";
  EXPECT_NEAR(loop.degree, 0.0095, 1e-12) << "max(20 - 10.5, 10.5 - 1) ms";
  EXPECT_NEAR(loop.relative_degree, 0.0095 / 0.0105, 1e-9);
  EXPECT_FALSE(loop.balanced) << "D = 0.90 of the mean, above alpha = 0.1";
  ASSERT_TRUE(loop.std_dev);
  EXPECT_NEAR(*loop.std_dev, std::sqrt(399.0 / 12.0) * 1e-3, 1e-9)
      << "population sigma of 1..20 ms: sqrt((n^2 - 1) / 12)";
  EXPECT_NEAR(*loop.variation, *loop.std_dev / 0.0105, 1e-9);
  ASSERT_TRUE(loop.percentiles);
  // Bucket edges 8.39 and 12.58 ms hold 9..12 ms, 8 below: the 10th of 20 is half-way in.
  EXPECT_NEAR(loop.percentiles->p50, 0.0105, 0.0002) << "the true median is 10.5 ms";
  // [16.78 ms, max 20 ms] holds 17..20 ms, 16 below: the 18th is half-way: 18.39 ms.
  EXPECT_NEAR(loop.percentiles->p90, 0.0185, 0.0005);
  EXPECT_NEAR(loop.percentiles->p99, 0.0199, 0.0005);
  EXPECT_EQ(loop.processors.size(), 1u);
  EXPECT_EQ(loop.balance_gain, 0.0) << "one processor: balancing changes nothing as it runs";
  const auto finding = unbalanced_loop(loop, 1.0);
  ASSERT_TRUE(finding);
  EXPECT_EQ(finding->kind, FindingKind::unbalanced_loop);
  EXPECT_EQ(finding->remedy, Remedy::cost_aware_partition);
  ASSERT_FALSE(a.intervals[loop.interval].diagnosis.empty());
  EXPECT_EQ(a.intervals[loop.interval].diagnosis.back().kind, FindingKind::unbalanced_loop)
      << "the interval's diagnosis says so";
}

TEST(LoopBalance, AlphaDecidesWhatIsBalanced) {
  AnalysisOptions options;
  options.balance_alpha = 1.0;  // D / mean = 0.905
  const Analysis a = analyze(run_of({parperf::test::make_site(2, kSequentialLoop, 40, "growing", "f.c")},
                                    {{loop_node(0, 2, growing_times())}}),
                             options);
  EXPECT_TRUE(only_loop(a).balanced);
  EXPECT_EQ(only_loop(a).alpha, 1.0);
}

TEST(LoopBalance, BranchCostIsWeightedByFrequency) {
  // 3 entries of a 2 ms branch and 1 of a 6 ms branch: (3 x 2 + 1 x 6) / 4 = 3 ms.
  format::Node loop = loop_node(0, 2, std::vector<std::uint64_t>(4, 8 * kMs));
  const Analysis a = analyze(run_of({parperf::test::make_site(2, kSequentialLoop, 40, "l", "f.c"),
                                     parperf::test::make_site(3, kBranch, 42, "cheap", "f.c"),
                                     parperf::test::make_site(4, kBranch, 45, "dear", "f.c")},
                                    {{loop, entries(1, 3, 3, 2 * kMs), entries(1, 4, 1, 6 * kMs)}}));
  const LoopBalance& l = only_loop(a);
  ASSERT_EQ(l.branches.size(), 2u);
  EXPECT_EQ(l.branches[0].identity.name, "cheap");
  EXPECT_EQ(l.branches[0].frequency, 3u);
  EXPECT_NEAR(l.branches[0].mean, 0.002, 1e-12);
  EXPECT_EQ(l.branches[1].frequency, 1u);
  EXPECT_NEAR(l.branches[1].mean, 0.006, 1e-12);
  ASSERT_TRUE(l.branch_cost);
  EXPECT_NEAR(*l.branch_cost, 0.003, 1e-12);
}

TEST(LoopBalance, ThreadImbalanceIsTheSpreadOfTheThreadsTimesAndItsGainTheirWaitForTheSlowest) {
  // Thread 0 runs iterations of 10 ms, 20 ms; thread 1 of 30, 40, 50 ms: T_p = 30 ms and 120 ms.
  const Analysis a = analyze(
      run_of({parperf::test::make_site(2, kParallelLoop, 7, "rows", "p.c")},
             {{loop_node(0, 2, {10 * kMs, 20 * kMs})}, {loop_node(0, 2, {30 * kMs, 40 * kMs, 50 * kMs})}}));
  const LoopBalance& loop = only_loop(a);
  EXPECT_EQ(loop.count, 5u);
  ASSERT_EQ(loop.processors.size(), 2u);
  EXPECT_NEAR(loop.processors[0].time, 0.030, 1e-12);
  EXPECT_NEAR(loop.processors[1].time, 0.120, 1e-12);
  EXPECT_NEAR(loop.processor_imbalance, 0.090, 1e-12) << "max_p T_p - min_p T_p";
  EXPECT_EQ(loop.max_processor, 1);
  EXPECT_EQ(loop.min_processor, 0);
  EXPECT_NEAR(loop.balance_gain, 0.090, 1e-12) << "2 x (120 - 75) ms: thread 0 waits 90 ms for thread 1";
  const auto finding = unbalanced_loop(loop, 0.3);
  ASSERT_TRUE(finding);
  EXPECT_EQ(finding->remedy, Remedy::dynamic_schedule);
  EXPECT_NEAR(finding->estimated_gain, 0.090, 1e-12);
  EXPECT_NEAR(finding->share, 0.3, 1e-12);
}

TEST(LoopBalance, TiedThreadsNameTheLowestProcessorForTheMinimumAndTheMaximum) {
  // Threads 0 and 1 run 10 ms, threads 2 and 3 run 30 ms: the minimum is reached first on thread 0,
  // the maximum first on thread 2, as every comparative figure names them (the lowest on ties).
  const auto site = parperf::test::make_site(2, kParallelLoop, 7, "rows", "p.c");
  const Analysis a = analyze(run_of({site}, {{loop_node(0, 2, {10 * kMs})},
                                             {loop_node(0, 2, {10 * kMs})},
                                             {loop_node(0, 2, {30 * kMs})},
                                             {loop_node(0, 2, {30 * kMs})}}));
  const LoopBalance& loop = only_loop(a);
  ASSERT_EQ(loop.processors.size(), 4u);
  EXPECT_NEAR(loop.processor_min, 0.010, 1e-12);
  EXPECT_NEAR(loop.processor_max, 0.030, 1e-12);
  EXPECT_NEAR(loop.processor_mean, 0.020, 1e-12);
  EXPECT_EQ(loop.min_processor, 0) << "threads 0 and 1 both run the least: the lowest is named";
  EXPECT_EQ(loop.max_processor, 2) << "threads 2 and 3 both run the most: the lowest is named, as in the "
                                      "comparative characteristics";
}

TEST(LoopBalance, NestedLoopsComeInnermostFirst) {
  // outer (site 2) > middle (site 3) > inner (site 4), and a lone loop (site 5) beside them.
  format::Node outer = loop_node(0, 2, {30 * kMs});
  format::Node middle = loop_node(1, 3, {10 * kMs, 20 * kMs});
  format::Node inner = loop_node(2, 4, {5 * kMs, 5 * kMs});
  format::Node lone = loop_node(0, 5, {1 * kMs});
  const Analysis a = analyze(run_of({parperf::test::make_site(2, kSequentialLoop, 1, "outer", "n.c"),
                                     parperf::test::make_site(3, kSequentialLoop, 2, "middle", "n.c"),
                                     parperf::test::make_site(4, kSequentialLoop, 3, "inner", "n.c"),
                                     parperf::test::make_site(5, kSequentialLoop, 9, "lone", "n.c")},
                                    {{outer, middle, inner, lone}}));
  ASSERT_EQ(a.loops.size(), 4u);
  std::vector<std::string> names;
  std::vector<std::uint32_t> depths;
  for (std::size_t i : a.loops) {
    names.push_back(a.tree().intervals[i].identity.name);
    depths.push_back(a.intervals[i].loop_balance->inner_loop_depth);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"inner", "lone", "middle", "outer"}));
  EXPECT_EQ(depths, (std::vector<std::uint32_t>{0, 0, 1, 2}));
}

TEST(LoopBalance, AProfileWithoutDistributionsStillHasTheBalanceDegree) {
  // Format 3.2: count, sum, min and max only.
  const Analysis a = analyze(run_of({parperf::test::make_site(2, kSequentialLoop, 40, "growing", "f.c")},
                                    {{loop_node(0, 2, growing_times(), false)}}));
  const LoopBalance& loop = only_loop(a);
  EXPECT_NEAR(loop.degree, 0.0095, 1e-12);
  EXPECT_FALSE(loop.balanced);
  EXPECT_FALSE(loop.std_dev);
  EXPECT_FALSE(loop.percentiles);
  EXPECT_FALSE(loop.histogram);
}

TEST(LoopBalance, PercentilesInterpolateWithinTheirBucketNarrowedToTheExtremes) {
  format::IterationHistogram h;
  h.buckets[format::iteration_bucket(3000)] = 4;  // [2048, 3072) ns
  EXPECT_NEAR(histogram_percentile_ns(h, 0.5, 2500, 3000), 2750, 1e-9) << "half-way through [2500, 3000]";
  EXPECT_NEAR(histogram_percentile_ns(h, 1.0, 2500, 3000), 3000, 1e-9);
  EXPECT_EQ(histogram_percentile_ns(format::IterationHistogram{}, 0.5, 0, 0), 0.0) << "no iterations";
}

}  // namespace
}  // namespace parperf::analysis
