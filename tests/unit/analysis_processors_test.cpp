// What a processor is (--unit thread|rank), how processors are numbered, and the characteristics
// of whole runs computed through the merged tree: profile → tree → processors → characteristics.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/characteristics.hpp"
#include "analysis/interval_tree.hpp"
#include "analysis/processors.hpp"
#include "unit/profile_values.hpp"
#include "unit/seconds_assertion.hpp"

namespace parperf::analysis {
namespace {

constexpr std::uint64_t kMs = 1'000'000;
using testing_support::kExact;
using testing_support::seconds_are;

// One process with a "work" interval directly under the program; each thread spends the given
// milliseconds in it (a negative value: the thread never enters it).
format::Profile process(std::int64_t rank, std::int64_t world_size,
                        const std::vector<std::uint32_t>& thread_indices, const std::vector<int>& work_ms) {
  format::Profile p;
  p.process.rank = rank;
  p.process.world_size = world_size;
  p.process.thread_count = static_cast<std::uint32_t>(thread_indices.size());
  p.sites = {parperf::test::make_site(1, 0, 0, "program", ""),
             parperf::test::make_site(2, 1, 7, "work", "work.cpp")};
  for (std::size_t i = 0; i < thread_indices.size(); ++i) {
    format::Thread t;
    t.index = thread_indices[i];
    format::Node root;
    root.site = 1;
    root.count = 1;
    root.sum_ns = 500 * kMs;
    t.nodes.push_back(root);
    if (work_ms[i] >= 0) {
      format::Node work;
      work.parent = 0;
      work.site = 2;
      work.count = 1;
      work.sum_ns = static_cast<std::uint64_t>(work_ms[i]) * kMs;
      work.os_user_self_ns = static_cast<std::uint64_t>(work_ms[i]) * kMs / 2;
      t.nodes.push_back(work);
    }
    p.threads.push_back(t);
  }
  return p;
}

const MergedInterval& work_interval(const IntervalTree& tree) {
  return tree.intervals.at(tree.intervals[0].children.at(0));
}

TEST(analysis_processors, TwoThreadsOf60And180MillisecondsInThreadUnit) {
  IntervalTree tree = build_interval_tree({process(0, 1, {0, 1}, {60, 180})});
  Characteristics c = characterize(processor_inputs(tree, work_interval(tree), Unit::thread));
  EXPECT_EQ(c.processors, 2u);
  EXPECT_TRUE(seconds_are("execution time", c.execution_time, 0.180));
  EXPECT_TRUE(seconds_are("total time", c.total_time, 0.360));
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.240));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0.120, "thread 0 waits 120 ms for thread 1"));
  EXPECT_TRUE(seconds_are("load imbalance", c.load_imbalance, 0.120));
  EXPECT_NEAR(c.efficiency, 2.0 / 3.0, kExact);
  EXPECT_TRUE(seconds_are("OS CPU user", c.os_cpu_user, 0.120, "half of each thread's time"));
}

TEST(analysis_processors, TwoThreadsOf60And180MillisecondsInRankUnitKeepTheirEfficiency) {
  IntervalTree tree = build_interval_tree({process(0, 1, {0, 1}, {60, 180})});
  std::vector<ProcessorInput> in = processor_inputs(tree, work_interval(tree), Unit::rank);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_FALSE(in[0].thread.has_value());
  Characteristics c = characterize(in);
  EXPECT_EQ(c.processors, 1u);
  EXPECT_EQ(c.threads, 2u);
  EXPECT_TRUE(seconds_are("execution time", c.execution_time, 0.180));
  EXPECT_TRUE(seconds_are("total time", c.total_time, 0.180));
  EXPECT_TRUE(
      seconds_are("productive time", c.productive_time, 0.120, "the mean of the threads' 60 and 180 ms"));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0.060, "within the process: thread 0 finishes early"));
  EXPECT_TRUE(seconds_are("load imbalance", c.load_imbalance, 0, "one processor cannot be imbalanced"));
  EXPECT_NEAR(c.efficiency, 2.0 / 3.0, kExact) << "the same efficiency as in thread unit";
  EXPECT_TRUE(seconds_are("OS CPU user", c.os_cpu_user, 0.120, "a process's CPU time is its threads' sum"));
  EXPECT_EQ(c.entries, 2u);
}

TEST(analysis_processors, HybridRunInRankUnit) {
  // Rank 0: threads of 100 and 50 ms → exec 100, cpu 75 (25 idle within). Rank 1: 200 and 200 ms.
  IntervalTree tree =
      build_interval_tree({process(0, 2, {0, 1}, {100, 50}), process(1, 2, {0, 1}, {200, 200})});
  std::vector<ProcessorInput> in = processor_inputs(tree, work_interval(tree), Unit::rank);
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].processor, 0);
  EXPECT_EQ(in[1].processor, 1);
  EXPECT_TRUE(seconds_are("rank 0 execution", in[0].execution, 0.100, "its slowest thread"));
  EXPECT_TRUE(seconds_are("rank 0 productive", in[0].productive(), 0.075, "the mean of 100 and 50 ms"));
  Characteristics c = characterize(in);
  EXPECT_EQ(c.processors, 2u);
  EXPECT_EQ(c.threads, 4u);
  EXPECT_TRUE(seconds_are("execution time", c.execution_time, 0.200));
  EXPECT_TRUE(seconds_are("total time", c.total_time, 0.400));
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.275));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0.125,
                          "rank 0 waits 100 ms for rank 1, and its thread 1 waits 25 ms on average"));
  EXPECT_TRUE(seconds_are("idle time within processes", c.idle_within_processes, 0.025));
  EXPECT_TRUE(seconds_are("load imbalance", c.load_imbalance, 0.125, "200 − 75 ms"));
  EXPECT_NEAR(c.efficiency, 0.6875, kExact);
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(c), 0));

  Characteristics by_thread = characterize(processor_inputs(tree, work_interval(tree), Unit::thread));
  EXPECT_EQ(by_thread.processors, 4u);
  EXPECT_NEAR(by_thread.efficiency, 0.6875, kExact) << "550 ms productive of 4 × 200 ms";
}

TEST(analysis_processors, OneProcessNumbersProcessorsByThreadIndex) {
  IntervalTree tree = build_interval_tree({process(0, 1, {0, 3, 5}, {10, -1, 30})});
  std::vector<ProcessorInput> in = processor_inputs(tree, work_interval(tree), Unit::thread);
  ASSERT_EQ(in.size(), 2u) << "thread 3 never entered the interval, so it is not one of its processors";
  EXPECT_EQ(in[0].processor, 0);
  EXPECT_EQ(in[1].processor, 5);
  EXPECT_EQ(characterize(in).threads, 2u)
      << "like processors, threads count where they executed the interval";
}

TEST(analysis_processors, SeveralProcessesNumberThreadsGloballyInRankThreadOrder) {
  IntervalTree tree =
      build_interval_tree({process(1, 2, {0, 2}, {10, 20}), process(0, 2, {0, 1, 2}, {-1, 30, 40})});
  std::vector<ProcessorInput> in = processor_inputs(tree, work_interval(tree), Unit::thread);
  ASSERT_EQ(in.size(), 4u);
  // Locations in order: (0,0)=0 (0,1)=1 (0,2)=2 (1,0)=3 (1,2)=4.
  EXPECT_EQ(in[0].processor, 1);
  EXPECT_EQ(in[0].thread, 1u);
  EXPECT_EQ(in[1].processor, 2);
  EXPECT_EQ(in[2].processor, 3);
  EXPECT_EQ(in[2].rank, 1);
  EXPECT_EQ(in[3].processor, 4);
  EXPECT_EQ(in[3].thread, 2u);
}

TEST(analysis_processors, RankUnitNumbersProcessorsByRank) {
  IntervalTree tree = build_interval_tree({process(2, 4, {0}, {10}), process(3, 4, {0}, {-1})});
  std::vector<ProcessorInput> in = processor_inputs(tree, work_interval(tree), Unit::rank);
  ASSERT_EQ(in.size(), 1u) << "rank 3 never entered the interval";
  EXPECT_EQ(in[0].processor, 2);
  EXPECT_EQ(in[0].rank, 2);
}

TEST(analysis_processors, AnEntryThatNeverHappenedMakesNoProcessor) {
  format::Profile p = process(0, 1, {0, 1}, {10, 0});
  p.threads[1].nodes[1].count = 0;  // a node kept from an entry recorded while measurement was off
  IntervalTree tree = build_interval_tree({p});
  EXPECT_EQ(processor_inputs(tree, work_interval(tree), Unit::thread).size(), 1u);
}

TEST(analysis_processors, TheDefaultUnitIsTheProcessWhenThereAreSeveral) {
  EXPECT_EQ(default_unit(1), Unit::thread);
  EXPECT_EQ(default_unit(2), Unit::rank);
  EXPECT_EQ(parse_unit("rank"), Unit::rank);
  EXPECT_EQ(parse_unit("thread"), Unit::thread);
  EXPECT_FALSE(parse_unit("core").has_value());
  EXPECT_EQ(unit_name(Unit::rank), "rank");
}

}  // namespace
}  // namespace parperf::analysis
