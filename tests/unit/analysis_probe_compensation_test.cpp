// Probe compensation on a hand-built tree whose probe counts are known: the program holds a loop of
// 1000 iterations (1000 marks), each entering one interval "body" once.
//
// With entry 30 ns (10 ns of it inside the entry), mark 8 ns:
//   body     1000 entries · 10 ns                                   = 10 µs
//   loop     1 · 10 + 1000 nested entries · 30 + 1000 marks · 8     = 38.01 µs
//            its iterations: 1000 · 8 + 1000 · 30                   = 38 µs, min/max − 38 ns
//   program  1 · 10 + 1001 nested · 30 + 1000 marks · 8             = 38.04 µs
#include <gtest/gtest.h>

#include "analysis/probe_compensation.hpp"

namespace parperf::analysis {
namespace {

LocationStats stats(std::uint64_t count, std::uint64_t sum_ns, std::uint64_t min_ns, std::uint64_t max_ns) {
  LocationStats s;
  s.location = {0, 0};
  s.count = count;
  s.sum_ns = sum_ns;
  s.min_ns = min_ns;
  s.max_ns = max_ns;
  return s;
}

IntervalTree loop_tree() {
  IntervalTree tree;
  tree.intervals.resize(3);
  tree.intervals[0].children = {1};
  tree.intervals[0].locations = {stats(1, 2'000'000, 2'000'000, 2'000'000)};
  tree.intervals[1].parent = 0;
  tree.intervals[1].level = 1;
  tree.intervals[1].children = {2};
  LocationStats loop = stats(1, 1'500'000, 1'500'000, 1'500'000);
  loop.iterations = {1000, 1'500'000, 1'000, 2'000};
  tree.intervals[1].locations = {loop};
  tree.intervals[2].parent = 1;
  tree.intervals[2].level = 2;
  tree.intervals[2].locations = {stats(1000, 500'000, 400, 700)};
  tree.locations = {{0, 0}};
  return tree;
}

TEST(ProbeCompensation, TakesEachProbeOutOfEveryIntervalThatHoldsIt) {
  IntervalTree tree = loop_tree();
  const auto summary = compensate_probe_costs(tree, {{{0, 0}, {30, 10, 8}}});
  EXPECT_TRUE(summary.applied);
  EXPECT_EQ(tree.intervals[2].locations[0].sum_ns, 500'000u - 10'000u)
      << "body: its own 1000 entries · 10 ns";
  EXPECT_EQ(tree.intervals[1].locations[0].sum_ns, 1'500'000u - 38'010u)
      << "loop: 10 ns of its own entry, 1000 nested entries · 30 ns, 1000 marks · 8 ns";
  const auto& iterations = tree.intervals[1].locations[0].iterations;
  EXPECT_EQ(iterations.sum_ns, 1'500'000u - 38'000u) << "iterations: 1000 marks · 8 + 1000 entries · 30";
  EXPECT_EQ(iterations.min_ns, 1'000u - 38u);
  EXPECT_EQ(iterations.max_ns, 2'000u - 38u);
  EXPECT_EQ(tree.intervals[0].locations[0].sum_ns, 2'000'000u - 38'040u) << "program: all of them";
  EXPECT_NEAR(summary.removed_seconds, 38'040e-9, 1e-12);
  EXPECT_NEAR(summary.removed_share, 38'040.0 / 2'000'000.0, 1e-9);
}

TEST(ProbeCompensation, AnUncalibratedLocationIsLeftAsMeasured) {
  IntervalTree tree = loop_tree();
  const auto summary = compensate_probe_costs(tree, {{{0, 0}, {0, 0, 0}}});
  EXPECT_FALSE(summary.applied);
  EXPECT_EQ(tree.intervals[0].locations[0].sum_ns, 2'000'000u);
}

TEST(ProbeCompensation, NeverGoesBelowZero) {
  IntervalTree tree = loop_tree();
  tree.intervals[2].locations[0].sum_ns = 3'000;  // less than its entries' probes: 10 µs
  compensate_probe_costs(tree, {{{0, 0}, {30, 10, 8}}});
  EXPECT_EQ(tree.intervals[2].locations[0].sum_ns, 0u);
  EXPECT_EQ(tree.intervals[2].locations[0].min_ns, 390u) << "400 − its 10 ns share";
}

}  // namespace
}  // namespace parperf::analysis
