// The one-line diagnosis names the largest loss in the user's terms: the analysis's diagnosis
// (analysis/findings.hpp) as the report words it.
#include <gtest/gtest.h>

#include <string>

#include "report/diagnosis.hpp"

namespace parperf::report {
namespace {

using analysis::Characteristics;
using analysis::Comparative;
using analysis::Figure;

std::string diagnosis_of(const Characteristics& c, const Comparative& comparative) {
  return diagnosis_text(analysis::diagnose(c, comparative));
}

Characteristics interval(double total, double productive) {
  Characteristics c;
  c.processors = 2;
  c.total_time = total;
  c.execution_time = total / 2;
  c.productive_time = productive;
  c.lost_time = total - productive;
  c.efficiency = productive / total;
  return c;
}

Comparative execution_between(std::int64_t fast, double fast_s, std::int64_t slow, double slow_s) {
  Comparative cmp;
  cmp.extremes[static_cast<std::size_t>(Figure::execution_time)] = {fast_s, fast, slow_s, slow,
                                                                    (fast_s + slow_s) / 2};
  return cmp;
}

TEST(report_diagnosis, IdleTimeFromLoadImbalanceNamesTheEarlyAndTheLateProcessor) {
  Characteristics c = interval(0.36, 0.24);
  c.idle_time = 0.12;
  c.load_imbalance = 0.12;
  EXPECT_EQ(diagnosis_of(c, execution_between(0, 0.06, 1, 0.18)),
            "idle time is 33% of total: processor 0 finishes 120 ms before processor 1 (load imbalance)");
}

TEST(report_diagnosis, IdleTimeWithoutImbalanceBlamesTheSlowProcessorsOwnLosses) {
  Characteristics c = interval(0.4, 0.3);
  c.idle_time = 0.06;
  c.communication = 0.04;
  c.load_imbalance = 0.0;
  std::string d = diagnosis_of(c, execution_between(1, 0.14, 0, 0.2));
  EXPECT_EQ(d,
            "idle time is 15% of total: processor 1 finishes 60 ms before processor 0 "
            "(the slowest processor's extra time is itself lost time)");
}

TEST(report_diagnosis, IdleTimeInsideProcessesPointsToTheThreads) {
  Characteristics c = interval(0.18, 0.12);
  c.processors = 1;
  c.idle_time = 0.06;
  c.idle_within_processes = 0.06;
  EXPECT_EQ(diagnosis_of(c, execution_between(0, 0.18, 0, 0.18)),
            "idle time is 33% of total: threads inside a process finish at different times "
            "(load imbalance between threads; --unit thread shows each thread)");
}

TEST(report_diagnosis, CommunicationIsSplitIntoWaitingAndOverhead) {
  Characteristics c = interval(1.0, 0.7);
  c.communication = 0.3;
  c.communication_real_sync = 0.25;
  c.communication_starts = 0.05;
  EXPECT_EQ(
      diagnosis_of(c, {}),
      "communication is 30% of total: 250 ms waiting for partners (late senders and receivers, early "
      "arrival at collectives), 50 ms in the calls themselves (overhead and transfer; see the SRC points)");
}

TEST(report_diagnosis, InsufficientParallelismAndWaitingAreNamed) {
  Characteristics c = interval(1.0, 0.5);
  c.insufficient_parallelism = 0.5;
  EXPECT_EQ(diagnosis_of(c, {}).rfind("insufficient parallelism is 50% of total", 0), 0u);
  c.insufficient_parallelism = 0.1;
  c.waiting = 0.4;
  EXPECT_EQ(diagnosis_of(c, {}).rfind("OpenMP waiting is 40% of total", 0), 0u);
}

TEST(report_diagnosis, SmallLossesAreNotAFinding) {
  Characteristics c = interval(1.0, 0.995);
  c.idle_time = 0.005;
  EXPECT_EQ(diagnosis_of(c, {}), "no significant loss: efficiency 100%");
  EXPECT_EQ(diagnosis_of(Characteristics{}, {}), "not executed");
}

TEST(report_diagnosis, ThreadsOffTheCpuAreNamedBesideTheWallClockVerdict) {
  Characteristics c = interval(0.4, 0.3);  // one thread sleeps 200 ms, one computes 100 ms
  c.idle_time = 0.1;
  c.load_imbalance = 0.1;
  c.os_cpu_user = 0.1;
  Comparative cmp = execution_between(1, 0.1, 0, 0.2);
  cmp.extremes[static_cast<std::size_t>(Figure::entries)] = {1, 0, 1, 0, 1};
  EXPECT_EQ(diagnosis_of(c, cmp),
            "idle time is 25% of total: processor 1 finishes 100 ms before processor 0 (load imbalance); "
            "only 33% of the time inside ran on a CPU: threads were sleeping, blocked or waiting for I/O, "
            "or the machine is oversubscribed");
}

Comparative balanced_productive(double max_over_mean) {
  Comparative cmp = execution_between(0, 1.0, 1, 1.0);
  cmp.extremes[static_cast<std::size_t>(Figure::entries)] = {1, 0, 1, 0, 1};
  cmp.extremes[static_cast<std::size_t>(Figure::productive_time)] = {0.8, 0, 0.8 * max_over_mean, 1, 0.8};
  return cmp;
}

TEST(report_diagnosis, DesyncNamesTheProductiveBalanceItBlames) {
  Characteristics c = interval(2.0, 1.7);
  c.desync = 0.3;
  EXPECT_EQ(diagnosis_of(c, balanced_productive(1.5)),
            "desync time is 15% of total: threads wait at the end of work-sharing constructs or parallel "
            "regions for the slowest thread (unbalanced work: productive time max/mean 1.50; see the SRC "
            "points)");
  EXPECT_EQ(diagnosis_of(c, balanced_productive(1.07)),
            "desync time is 15% of total: threads wait at the end of work-sharing constructs or parallel "
            "regions for the slowest thread (productive times balanced, max/mean 1.07: a late thread, not "
            "more work; see the SRC points)");
}

TEST(report_diagnosis, BalancedWorkWithThreadsOffTheCpuIsPreemption) {
  Characteristics c = interval(2.0, 1.7);
  c.desync = 0.3;
  c.os_cpu_user = 1.4;  // 70 % of 2 s
  EXPECT_EQ(diagnosis_of(c, balanced_productive(1.07)),
            "desync time is 15% of total, yet the processors' productive times are balanced (max/mean 1.07) "
            "and only 70% of the time inside ran on a CPU: preemption, threads were off the CPU (machine "
            "oversubscribed or other load) while the others waited");
}

TEST(report_diagnosis, ShortEntriesSayNothingAboutTheCpuTheirReadsCannotResolve) {
  Characteristics c = interval(0.4, 0.4);
  c.os_cpu_user = 0.0;  // entries of 0.1 ms each: CPU time went to the parent, not a sign of sleep
  Comparative cmp = execution_between(0, 0.2, 1, 0.2);
  cmp.extremes[static_cast<std::size_t>(Figure::entries)] = {2000, 0, 2000, 0, 2000};
  EXPECT_EQ(diagnosis_of(c, cmp), "no significant loss: efficiency 100%");
}

}  // namespace
}  // namespace parperf::report
