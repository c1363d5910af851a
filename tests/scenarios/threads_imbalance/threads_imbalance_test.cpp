// Scenario: two threads busy 60 ms and 180 ms inside the interval "work" (threads_imbalance.cpp).
//
// Expected for "work", with each thread a processor (single process: --unit thread by default):
//   Execution time = max exec = 0.180 s          Total time = 2 x 0.180 = 0.360 s
//   Productive     = 0.060 + 0.180 = 0.240 s     Idle time  = (0.180 - 0.060) + 0 = 0.120 s
//   Load imbalance = (0.180 - 0.060) + 0 = 0.120 s                Efficiency = 0.240 / 0.360 = 0.667
// Each thread busy-waits on the wall clock, so it spends at least its time in the interval and at
// most a scheduling slice more: +-15 ms absolute (+-30 ms on sums of two) still fails every wrong
// formula (e.g. Total = sum of exec = 0.240, or n = 3 counting the main thread: 0.540).
#include <gtest/gtest.h>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr double kTolerance = 0.015;

class ThreadsImbalance : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const auto result = measure(*dir_ / "run", {PARPERF_PROGRAM_THREADS_IMBALANCE_PROGRAM});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::filesystem::path run() { return *dir_ / "run"; }
  static TempDir* dir_;
};
TempDir* ThreadsImbalance::dir_ = nullptr;

TEST_F(ThreadsImbalance, MainCharacteristicsMatchTheConstruction) {
  const auto report = report_json(run());
  const auto* work = find_interval(report, "user", "work");
  ASSERT_NE(work, nullptr) << report.dump(2);
  EXPECT_EQ((*work)["processors"], 2) << "two threads executed 'work'; the main thread did not";
  EXPECT_EQ((*work)["count"], 2) << "one entry per thread";
  EXPECT_NEAR(number(*work, "execution_time"), 0.180, kTolerance) << "the longest thread: 180 ms";
  EXPECT_NEAR(number(*work, "total_time"), 0.360, 2 * kTolerance) << "2 processors x 180 ms";
  EXPECT_NEAR(number(*work, "productive_time"), 0.240, 2 * kTolerance) << "60 ms + 180 ms of work";
  EXPECT_NEAR(number(*work, "idle_time"), 0.120, kTolerance)
      << "the short thread waits 120 ms for the long one";
  EXPECT_NEAR(number(*work, "lost_time"), 0.120, kTolerance) << "all of the loss is idle time";
  EXPECT_NEAR(number(*work, "load_imbalance"), 0.120, kTolerance) << "max cpu - min cpu = 180 - 60 ms";
  EXPECT_NEAR(number(*work, "efficiency"), 0.667, 0.04) << "240 / 360";
  EXPECT_NEAR(number(*work, "communication"), 0.0, 1e-12) << "no message passing in this program";
}

TEST_F(ThreadsImbalance, ComparativeCharacteristicsNameTheProcessors) {
  const auto report = report_json(run());
  const auto* work = find_interval(report, "user", "work");
  ASSERT_NE(work, nullptr);
  const auto& exec = (*work)["comparative"]["execution_time"];
  EXPECT_NEAR(number(exec, "min"), 0.060, kTolerance);
  EXPECT_NEAR(number(exec, "max"), 0.180, kTolerance);
  EXPECT_NEAR(number(exec, "mean"), 0.120, kTolerance);
  EXPECT_NE(exec["min_processor"], exec["max_processor"]);
  ASSERT_EQ((*work)["per_processor"].size(), 2u);
  double sum = 0;
  for (const auto& p : (*work)["per_processor"]) sum += number(p, "execution_time");
  EXPECT_NEAR(sum, 0.240, 2 * kTolerance);
}

TEST_F(ThreadsImbalance, RankUnitSeesOneProcessWithTheSameEfficiency) {
  const auto report = report_json(run(), {"--unit", "rank"});
  const auto* work = find_interval(report, "user", "work");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ((*work)["processors"], 1);
  EXPECT_EQ((*work)["threads"], 2);
  EXPECT_NEAR(number(*work, "execution_time"), 0.180, kTolerance);
  EXPECT_NEAR(number(*work, "efficiency"), 0.667, 0.04) << "the process's threads idle 120 of 360 thread-ms";
}

TEST_F(ThreadsImbalance, TextProtocolShowsTheCharacteristics) {
  const auto result = run_process({parperf_command().string(), "report", run().string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* heading : {"Parallelization efficiency", "Execution time", "Total time", "Productive time",
                              "Lost time", "Idle time", "Load imbalance", "work"})
    EXPECT_NE(result.out.find(heading), std::string::npos) << "missing '" << heading << "' in\n"
                                                           << result.out;
}

}  // namespace
}  // namespace parperf::test
