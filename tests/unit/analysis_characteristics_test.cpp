// The characteristics of DESIGN.md section 4 as pure functions of per-processor figures. Every
// expected value is computed by hand from the definitions; they are exact up to rounding (1e-9 s).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/characteristics.hpp"
#include "unit/seconds_assertion.hpp"

namespace parperf::analysis {
namespace {

using testing_support::kExact;
using testing_support::seconds_are;

ProcessorInput thread(std::int64_t processor, double execution) {
  ProcessorInput p;
  p.processor = processor;
  p.rank = 0;
  p.thread = static_cast<std::uint32_t>(processor);
  p.process_threads = 1;  // a thread processor stands for itself
  p.entries = 1;
  p.execution = execution;
  return p;
}

TEST(analysis_characteristics, TwoThreadsOf60And180MillisecondsLoseTheDifferenceAsIdleTime) {
  std::vector<ProcessorInput> in = {thread(0, 0.060), thread(1, 0.180)};
  Characteristics c = characterize(in);
  EXPECT_TRUE(seconds_are("execution time", c.execution_time, 0.180, "the slower thread's time"));
  EXPECT_EQ(c.processors, 2u);
  EXPECT_EQ(c.threads, 2u);
  EXPECT_TRUE(seconds_are("total time", c.total_time, 0.360, "2 processors × 0.180 s"));
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.240, "nothing is identified as lost"));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0.120, "thread 0 waits 120 ms for thread 1"));
  EXPECT_TRUE(seconds_are("lost time", c.lost_time, 0.120, "idle time is the only loss"));
  EXPECT_TRUE(seconds_are("load imbalance", c.load_imbalance, 0.120, "thread 0 did 120 ms less work"));
  EXPECT_NEAR(c.efficiency, 0.240 / 0.360, kExact) << "efficiency = productive / total";
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(c), 0));
}

TEST(analysis_characteristics, CommunicationReducesProductiveTimeAndEntersLostTime) {
  std::vector<ProcessorInput> in = {thread(0, 0.100), thread(1, 0.100)};
  in[1].breakdown.communication_real_sync = 0.030;
  in[1].breakdown.communication_starts = 0.010;
  Characteristics c = characterize(in);
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.160, "thread 1 spent 40 ms communicating"));
  EXPECT_TRUE(seconds_are("communication", c.communication, 0.040));
  EXPECT_TRUE(seconds_are("communication real sync", c.communication_real_sync, 0.030));
  EXPECT_TRUE(seconds_are("communication starts", c.communication_starts, 0.010));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0, "both threads take 100 ms"));
  EXPECT_TRUE(seconds_are("lost time", c.lost_time, 0.040));
  EXPECT_TRUE(seconds_are("load imbalance", c.load_imbalance, 0.040, "thread 1 computed 40 ms less"));
  EXPECT_NEAR(c.efficiency, 0.8, kExact);
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(c), 0));
}

TEST(analysis_characteristics, EveryLostComponentEntersLostTimeAndPotentialsDoNot) {
  ProcessorInput p = thread(0, 1.0);
  p.breakdown.insufficient_parallelism_user = 0.1;
  p.breakdown.insufficient_parallelism_sys = 0.02;
  p.breakdown.communication_real_sync = 0.05;
  p.breakdown.communication_starts = 0.01;
  p.breakdown.waiting = 0.07;
  p.breakdown.productive_sys = 0.2;
  p.breakdown.productive_io = 0.05;
  p.breakdown.synchronization = 0.3;
  p.breakdown.time_variation = 0.4;
  p.breakdown.overlap = 0.5;
  std::vector<ProcessorInput> in = {p};
  Characteristics c = characterize(in);
  EXPECT_TRUE(seconds_are("insufficient parallelism", c.insufficient_parallelism, 0.12));
  EXPECT_TRUE(seconds_are("insufficient parallelism (user)", c.insufficient_parallelism_user, 0.1));
  EXPECT_TRUE(seconds_are("insufficient parallelism (sys)", c.insufficient_parallelism_sys, 0.02));
  EXPECT_TRUE(seconds_are("communication", c.communication, 0.06));
  EXPECT_TRUE(seconds_are("OpenMP waiting", c.waiting, 0.07));
  EXPECT_TRUE(seconds_are("lost time", c.lost_time, 0.25, "0.12 + 0.06 + 0.07, potentials excluded"));
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.75));
  EXPECT_TRUE(seconds_are("productive Sys", c.productive_sys, 0.2));
  EXPECT_TRUE(seconds_are("productive I/O", c.productive_io, 0.05));
  EXPECT_TRUE(seconds_are("productive CPU", c.productive_cpu, 0.5, "0.75 − Sys 0.2 − I/O 0.05"));
  EXPECT_TRUE(seconds_are("synchronization", c.synchronization, 0.3));
  EXPECT_TRUE(seconds_are("time variation", c.time_variation, 0.4));
  EXPECT_TRUE(seconds_are("overlap", c.overlap, 0.5));
  EXPECT_TRUE(seconds_are("Total − (Productive + Lost)", accounting_gap(c), 0));
}

TEST(analysis_characteristics, IdleTimeWithinAProcessIsIdleAndLost) {
  // A process whose threads took 60 and 180 ms: exec 180 ms, cpu = mean 120 ms, 60 ms idle within.
  ProcessorInput process;
  process.thread.reset();
  process.process_threads = 2;
  process.execution = 0.180;
  process.idle_within = 0.060;
  std::vector<ProcessorInput> in = {process};
  Characteristics c = characterize(in);
  EXPECT_TRUE(seconds_are("productive time", c.productive_time, 0.120));
  EXPECT_TRUE(seconds_are("idle time", c.idle_time, 0.060));
  EXPECT_TRUE(seconds_are("idle time within processes", c.idle_within_processes, 0.060));
  EXPECT_NEAR(c.efficiency, 2.0 / 3.0, kExact);
  EXPECT_EQ(c.threads, 2u);
}

TEST(analysis_characteristics, ThreadsCountTheThreadsThatExecutedTheInterval) {
  auto process = [](std::int64_t rank, std::uint32_t executing_threads) {
    ProcessorInput p;
    p.rank = rank;
    p.process_threads = executing_threads;
    return p;
  };
  std::vector<ProcessorInput> in = {process(0, 4), process(3, 2)};
  EXPECT_EQ(characterize(in).threads, 6u) << "4 threads of rank 0 and 2 of rank 3 executed it";
}

TEST(analysis_characteristics, NothingExecutedIsFullyEfficient) {
  Characteristics c = characterize({});
  EXPECT_EQ(c.processors, 0u);
  EXPECT_EQ(c.total_time, 0);
  EXPECT_EQ(c.efficiency, 1.0) << "efficiency is 1 when the total time is 0";
  std::vector<ProcessorInput> zero = {thread(0, 0)};
  EXPECT_EQ(characterize(zero).efficiency, 1.0);
}

TEST(analysis_characteristics, PerProcessorRowsAddUpToTheInterval) {
  std::vector<ProcessorInput> in = {thread(0, 0.060), thread(1, 0.180)};
  in[1].breakdown.communication_starts = 0.030;
  std::vector<ProcessorFigures> rows = processor_figures(in);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(seconds_are("processor 0 idle time", rows[0].idle_time, 0.120, "it waits for processor 1"));
  EXPECT_TRUE(seconds_are("processor 0 lost time", rows[0].lost_time, 0.120));
  EXPECT_TRUE(seconds_are("processor 1 productive time", rows[1].productive_time, 0.150));
  EXPECT_TRUE(seconds_are("processor 1 lost time", rows[1].lost_time, 0.030));
  EXPECT_TRUE(seconds_are("processor 1 communication", rows[1].communication, 0.030));
  EXPECT_TRUE(seconds_are("processor 0 load imbalance share", rows[0].load_imbalance, 0.090, "150 − 60 ms"));
  EXPECT_TRUE(seconds_are("processor 1 load imbalance share", rows[1].load_imbalance, 0));
  Characteristics c = characterize(in);
  for (const ProcessorFigures& row : rows) {
    EXPECT_TRUE(seconds_are("productive + lost of a processor", row.productive_time + row.lost_time,
                            c.execution_time, "every row covers the interval's execution time"));
  }
  EXPECT_TRUE(seconds_are("Σ lost time of the rows", rows[0].lost_time + rows[1].lost_time, c.lost_time));
}

TEST(analysis_characteristics, ComparativeFiguresNameTheProcessorsOfMinAndMax) {
  std::vector<ProcessorInput> in = {thread(4, 0.050), thread(1, 0.200), thread(2, 0.050), thread(3, 0.100)};
  in[3].entries = 7;
  Comparative cmp = compare_processors(processor_figures(in));
  const Extreme& execution = cmp[Figure::execution_time];
  EXPECT_TRUE(seconds_are("minimum execution time", execution.min, 0.050));
  EXPECT_EQ(execution.min_processor, 2) << "processors 2 and 4 tie; the lower number is named";
  EXPECT_TRUE(seconds_are("maximum execution time", execution.max, 0.200));
  EXPECT_EQ(execution.max_processor, 1);
  EXPECT_TRUE(seconds_are("mean execution time", execution.mean, 0.100));
  const Extreme& idle = cmp[Figure::idle_time];
  EXPECT_EQ(idle.min_processor, 1) << "the slowest processor never waits";
  EXPECT_TRUE(seconds_are("maximum idle time", idle.max, 0.150));
  EXPECT_EQ(idle.max_processor, 2);
  const Extreme& entries = cmp[Figure::entries];
  EXPECT_EQ(entries.max, 7);
  EXPECT_EQ(entries.max_processor, 3);
  EXPECT_EQ(entries.min_processor, 1);
  EXPECT_DOUBLE_EQ(entries.mean, 2.5);
}

TEST(analysis_characteristics, ComparativeFiguresOfNoProcessorNameNone) {
  Comparative cmp = compare_processors({});
  EXPECT_FALSE(cmp[Figure::execution_time].min_processor.has_value());
  EXPECT_EQ(cmp[Figure::execution_time].mean, 0);
}

}  // namespace
}  // namespace parperf::analysis
