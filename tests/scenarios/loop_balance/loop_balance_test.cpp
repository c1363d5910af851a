// Scenario: loop balance of an annotated C program (loop_balance.c) and of an OpenMP loop whose
// chunks differ (../openmp_programs/triangular_loop.c), read from `parperf report --json`.
//
// Every iteration sleeps to a deadline, so it lasts at least its constructed time and at most that
// plus its late wake-up: the program prints how late its sleeps ended in all ("late", below), and
// the annotation calls themselves add microseconds (kSlack covers them, 10 us per iteration at most).
// Each tolerance below is derived from those two bounds and stated beside its check; each still fails
// the wrong formula it names.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "support/artifacts.hpp"
#include "support/machine_load.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr double kSlack = 0.0003;  // seconds: the annotation calls of a loop, at most

std::int64_t line_of(const std::string& name) {
  return marker_line(std::filesystem::path(LOOP_BALANCE_SOURCE_DIR) / "loop_balance.c", name);
}

class LoopBalanceScenario : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const MachineLoad load;
    const auto result = measure(*dir_ / "run", {PARPERF_PROGRAM_LOOP_BALANCE_PROGRAM});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    late_ = sleep_overshoot(result);
    noise_ = std::to_string(late_) + " s of late wake-ups; " + load.describe();
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::filesystem::path run() { return *dir_ / "run"; }
  static const nlohmann::json& loop(const nlohmann::json& report, const char* name) {
    const auto* interval = find_interval(report, "sequential_loop", name);
    EXPECT_NE(interval, nullptr) << "no sequential loop '" << name << "' in\n" << report.dump(2);
    return interval ? field(*interval, "loop_balance") : null_json();
  }
  static TempDir* dir_;
  static double late_;
  static std::string noise_;
};
TempDir* LoopBalanceScenario::dir_ = nullptr;
double LoopBalanceScenario::late_ = 0;
std::string LoopBalanceScenario::noise_;

TEST_F(LoopBalanceScenario, IterationsGrowingByAMillisecondAreUnbalancedByNineAndAHalf) {
  const auto report = report_json(run());
  const auto& growing = loop(report, "growing");
  EXPECT_EQ(growing["marks"], "iterations");
  EXPECT_EQ(integer(growing, "count"), 20)
      << "20 iteration marks, each iteration ended by the next or the end";
  // Iteration i lasts (i + 1) ms + e_i, e_i >= 0 and their sum at most late + slack: the mean is
  // 10.5 ms plus at most (late + slack) / 20; a mean over 19 iterations (the first mark taken as an
  // end) would be 11 ms.
  EXPECT_NEAR(number(growing, "mean"), 0.0105, kSlack + late_ / 20) << noise_;
  EXPECT_NEAR(number(growing, "min"), 0.001, kSlack + late_) << noise_;
  EXPECT_NEAR(number(growing, "max"), 0.020, kSlack + late_) << noise_;
  // D = max - mean = 9.5 ms + e_max - mean's excess: within late + slack of 9.5 ms. max - min (19 ms)
  // or the standard deviation (5.8 ms) taken for D fail.
  EXPECT_NEAR(number(growing, "balance_degree"), 0.0095, kSlack + late_) << noise_;
  EXPECT_NEAR(number(growing, "relative_degree"), 0.0095 / 0.0105, 0.05 + late_ / 0.0105) << noise_;
  EXPECT_EQ(growing["balanced"], false) << "D is 0.90 of the mean, alpha 0.1";
  EXPECT_EQ(number(growing, "alpha"), 0.1);
  // Population sigma of 1..20 ms: sqrt(399 / 12) = 5.77 ms; e_i move it by at most their largest.
  EXPECT_NEAR(number(growing, "std_dev"), std::sqrt(399.0 / 12.0) * 1e-3, kSlack + late_) << noise_;
  // The median, 10.5 ms, lies in the bucket [8.39, 12.58) ms that holds 9..12 ms: read half-way in.
  EXPECT_NEAR(number(field(growing, "percentiles"), "p50"), 0.0105, 0.0021 + late_) << noise_;
  EXPECT_EQ(field(growing, "processors").size(), 1u) << "one thread runs the loop";
  EXPECT_EQ(number(growing, "balance_gain"), 0.0) << "one processor: balancing saves nothing as it runs";
}

TEST_F(LoopBalanceScenario, TheUnbalancedLoopIsAFindingNamingItsFileAndLine) {
  const auto report = report_json(run());
  const auto& finding = field(loop(report, "growing"), "finding");
  EXPECT_EQ(finding["kind"], "unbalanced_loop");
  EXPECT_EQ(finding["remedy"], "cost_aware_partition");
  const std::string where = "loop_balance.c:" + std::to_string(line_of("growing"));
  EXPECT_NE(text_of(finding, "text").find(where), std::string::npos) << text_of(finding, "text");
  const auto* interval = find_interval(report, "sequential_loop", "growing");
  ASSERT_NE(interval, nullptr);
  EXPECT_NE(text_of(*interval, "diagnosis").find(where), std::string::npos)
      << "the interval's diagnosis says it: " << text_of(*interval, "diagnosis");
}

TEST_F(LoopBalanceScenario, EqualIterationsAreBalancedAndTheirBranchesWeighedByFrequency) {
  const auto report = report_json(run());
  const auto& even = loop(report, "even");
  EXPECT_EQ(integer(even, "count"), 12);
  EXPECT_NEAR(number(even, "mean"), 0.012, kSlack + late_ / 12) << noise_;
  // Each iteration is 12 ms + e_i, so D = max - mean <= max e_i <= late + slack. Balanced needs
  // D <= 0.1 x 12 ms = 1.2 ms: guaranteed only when the machine woke the program up in time.
  EXPECT_LE(number(even, "balance_degree"), kSlack + late_) << noise_;
  if (kSlack + late_ < 0.0012) {
    EXPECT_EQ(even["balanced"], true) << noise_;
    EXPECT_EQ(even["finding"], nullptr) << "a balanced loop is no finding";
  }
  const auto& branches = field(even, "branches");
  ASSERT_EQ(branches.size(), 2u) << even.dump(2);
  EXPECT_EQ(branches[0]["name"], "cheap");
  EXPECT_EQ(integer(branches[0], "frequency"), 9) << "three iterations in four";
  EXPECT_EQ(integer(branches[0], "line"), line_of("cheap"));
  EXPECT_NEAR(number(branches[0], "mean"), 0.004, kSlack + late_ / 9) << noise_;
  EXPECT_EQ(branches[1]["name"], "dear");
  EXPECT_EQ(integer(branches[1], "frequency"), 3);
  EXPECT_NEAR(number(branches[1], "mean"), 0.012, kSlack + late_ / 3) << noise_;
  // (9 x 4 + 3 x 12) / 12 = 6 ms; the unweighted mean of the two branches would be 8 ms.
  EXPECT_NEAR(number(even, "branch_cost"), 0.006, kSlack + late_ / 12) << noise_;
}

TEST_F(LoopBalanceScenario, TheTextReportHasTheLoopListAndItsDetailsTheBalanceBlock) {
  const auto overview = run_process({parperf_command().string(), "report", run().string()});
  ASSERT_EQ(overview.exit_code, 0) << describe(overview);
  EXPECT_NE(overview.out.find("== LOOP BALANCE, innermost loops first"), std::string::npos) << overview.out;
  const auto result = run_process({parperf_command().string(), "report", "--details", run().string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* text : {"--- loop balance (iterations) ---", "Balance degree D", "UNBALANCED",
                           "Branch cost", "branch \"cheap\"", "== LOOP BALANCE, innermost loops first"})
    EXPECT_NE(result.out.find(text), std::string::npos) << "missing '" << text << "' in\n" << result.out;
}

TEST_F(LoopBalanceScenario, BalanceAlphaDecidesWhatIsBalanced) {
  // D / mean is 0.90 by construction; an iteration that wakes up late on a busy machine raises it (by
  // late / mean: 10 ms late makes it 1.85). Alpha 3 holds it unless the run was more than 20 ms late,
  // and the decision must follow the measured D / mean either way.
  const auto report = report_json(run(), {"--balance-alpha", "3"});
  const auto& growing = loop(report, "growing");
  const double relative = number(growing, "relative_degree");
  EXPECT_EQ(growing["balanced"], relative <= 3) << "D / mean = " << relative << " against alpha = 3";
  EXPECT_LT(relative, 3) << "D / mean = 0.90 by construction, more than 20 ms late: " << noise_;
  EXPECT_EQ(number(growing, "alpha"), 3.0);
}

// The OpenMP triangular loop, schedule(static) on 2 threads, 3 repetitions: thread 0's chunk holds
// iterations of 1..8 ms (36 ms), thread 1's of 9..16 ms (100 ms), each repetition.
TEST(LoopBalanceOpenmp, StaticChunksOfGrowingIterationsShowTheThreadImbalance) {
  TempDir dir;
  const MachineLoad load;
  const auto result = measure(dir / "run", {PARPERF_PROGRAM_LOOP_BALANCE_TRIANGULAR_CLANG, "3", "static"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const double late = sleep_overshoot(result);
  const std::string noise = std::to_string(late) + " s of late wake-ups; " + load.describe();
  const auto report = report_json(dir / "run");
  const auto* omp_loop = find_interval(report, "omp_loop");
  ASSERT_NE(omp_loop, nullptr) << report.dump(2);
  const auto& balance = field(*omp_loop, "loop_balance");
  EXPECT_EQ(balance["marks"], "chunks");
  EXPECT_EQ(integer(balance, "count"), 6) << "one chunk per thread per repetition";
  // T_p: 3 x 36 = 108 ms and 3 x 100 = 300 ms, each at most late + slack more: their difference is
  // 192 ms within late + 3 slack; the per-repetition difference (64 ms) or the sum would fail.
  EXPECT_NEAR(number(balance, "processor_imbalance"), 0.192, 3 * kSlack + late) << noise;
  EXPECT_NEAR(number(balance, "processor_max"), 0.300, 3 * kSlack + late) << noise;
  // Two threads: n (max - mean) = max - min, what thread 0 waits at the barriers.
  EXPECT_NEAR(number(balance, "balance_gain"), 0.192, 3 * kSlack + late) << noise;
  EXPECT_EQ(balance["balanced"], false) << "chunks of 36 and 100 ms: D = 32 ms, 0.47 of the mean";
  const auto& finding = field(balance, "finding");
  EXPECT_EQ(finding["remedy"], "dynamic_schedule");
  EXPECT_NE(text_of(finding, "text").find("schedule(dynamic)"), std::string::npos)
      << text_of(finding, "text");
}

}  // namespace
}  // namespace parperf::test
