// Scenario: `parperf diff` on one program measured in two versions and at two thread counts
// (run_diff.cpp).
//
// before -> after: "solve" 200 ms -> 50 ms: a change of -150 ms, the largest, so it is listed first
// after the program; "refine" (30 ms) runs only after: new, +30 ms; "setup" 20 ms in both: about 0.
// Sleeps end at least on time and late only by their wake-up: each measured time is its constructed
// value plus 0..15 ms, so a change between two runs is within ±15 ms of the construction, widened by
// the late wake-ups both programs measured (support/sleep_overshoot.hpp).
// threads 2 -> threads 4: "work" runs on 2 then 4 threads, 120 ms then 60 ms each: a speedup of 2 of
// the interval with twice the processors.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/machine_load.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr double kTolerance = 0.015;

class RunDiff : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const MachineLoad load;
    for (const char* version : {"before", "after"}) {
      const auto result = measure(*dir_ / version, {PARPERF_PROGRAM_RUN_DIFF_PROGRAM, version});
      ASSERT_EQ(result.exit_code, 0) << describe(result);
      late_ += sleep_overshoot(result);
    }
    for (const char* count : {"2", "4"}) {
      const auto result = measure(*dir_ / (std::string("threads") + count),
                                  {PARPERF_PROGRAM_RUN_DIFF_PROGRAM, "threads", count});
      ASSERT_EQ(result.exit_code, 0) << describe(result);
      late_threads_ = std::max(late_threads_, sleep_overshoot(result));
    }
    tolerance_ = kTolerance + late_;
    noise_ = std::to_string(late_) + " s of late wake-ups; " + load.describe();
  }
  static void TearDownTestSuite() { delete dir_; }

  static ProcessResult diff_command(const std::string& a, const std::string& b,
                                    std::vector<std::string> options = {}) {
    std::vector<std::string> argv = {parperf_command().string(), "diff"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back((*dir_ / a).string());
    argv.push_back((*dir_ / b).string());
    return run_process(argv);
  }

  static nlohmann::json diff_json(const std::string& a, const std::string& b) {
    const ProcessResult result = diff_command(a, b, {"--json"});
    EXPECT_EQ(result.exit_code, 0) << describe(result);
    return nlohmann::json::parse(result.out, nullptr, false);
  }

  static TempDir* dir_;
  static double late_;          // how late the before and after programs' sleeps ended, in all
  static double late_threads_;  // the latest of the thread-count programs' threads, in all
  static double tolerance_;     // kTolerance and those late wake-ups
  static std::string noise_;    // the late wake-ups and the machine's load, in words
};
TempDir* RunDiff::dir_ = nullptr;
double RunDiff::late_ = 0;
double RunDiff::late_threads_ = 0;
double RunDiff::tolerance_ = kTolerance;
std::string RunDiff::noise_;

const nlohmann::json* interval_named(const nlohmann::json& diff, const std::string& name) {
  for (const auto& interval : diff["intervals"])
    if (interval["path"] == nlohmann::json::array({name})) return &interval;
  return nullptr;
}

TEST_F(RunDiff, TheShortenedIntervalChangedByItsConstruction) {
  const auto diff = diff_json("before", "after");
  ASSERT_EQ(diff["parperf_diff"], 1) << diff.dump(2);
  const auto* solve = interval_named(diff, "solve");
  ASSERT_NE(solve, nullptr) << "no interval 'solve' in\n" << diff.dump(2);
  EXPECT_EQ((*solve)["status"], "matched") << "'solve' ran in both versions";
  EXPECT_NEAR(number((*solve)["a"], "execution_time"), 0.200, tolerance_) << "before: 200 ms; " << noise_;
  EXPECT_NEAR(number((*solve)["b"], "execution_time"), 0.050, tolerance_) << "after: 50 ms; " << noise_;
  EXPECT_NEAR(number((*solve)["delta"], "execution_time"), -0.150, tolerance_)
      << "'solve' went from 200 ms to 50 ms; " << noise_;
  EXPECT_NEAR(number(*solve, "impact"), 0.150, tolerance_) << noise_;
  EXPECT_NEAR(number(*solve, "relative_change"), -0.75, 0.1) << "50 / 200 - 1; " << noise_;
}

TEST_F(RunDiff, TheIntervalOnlyTheNewVersionHasIsNew) {
  const auto diff = diff_json("before", "after");
  const auto* refine = interval_named(diff, "refine");
  ASSERT_NE(refine, nullptr) << "no interval 'refine' in\n" << diff.dump(2);
  EXPECT_EQ((*refine)["status"], "new") << "'refine' runs only in the after version";
  EXPECT_TRUE((*refine)["a"].is_null()) << "A never entered 'refine'";
  EXPECT_NEAR(number((*refine)["delta"], "execution_time"), 0.030, tolerance_) << "0 -> 30 ms; " << noise_;
  EXPECT_TRUE((*refine)["delta"]["efficiency"].is_null()) << "no efficiency to compare with in A";
  const auto* setup = interval_named(diff, "setup");
  ASSERT_NE(setup, nullptr);
  EXPECT_EQ((*setup)["status"], "matched");
  EXPECT_NEAR(number((*setup)["delta"], "execution_time"), 0, tolerance_) << "20 ms in both; " << noise_;
}

TEST_F(RunDiff, TheLargestChangeComesFirstAfterTheProgram) {
  const auto diff = diff_json("before", "after");
  const auto& intervals = diff["intervals"];
  ASSERT_EQ(intervals.size(), 4u) << "program, setup, solve, refine:\n" << diff.dump(2);
  EXPECT_EQ(intervals[0]["kind"], "program");
  EXPECT_EQ(intervals[1]["name"], "solve") << "-150 ms is the largest change";
  EXPECT_EQ(intervals[2]["name"], "refine") << "+30 ms is the next";
  EXPECT_EQ(intervals[3]["name"], "setup") << "unchanged, last";
  EXPECT_NEAR(number(diff["a"], "execution_time") - number(diff["b"], "execution_time"), 0.120, tolerance_)
      << "the program: 220 ms before, 100 ms after; " << noise_;
  EXPECT_FALSE(diff["program"]["processors_differ"].get<bool>());
  EXPECT_NEAR(number(diff["program"], "speedup"),
              number(diff["a"], "execution_time") / number(diff["b"], "execution_time"), 1e-9)
      << "the speedup is A's program time over B's";
  EXPECT_GT(number(diff["program"], "speedup"), 1.5) << "220 ms before, 100 ms after; " << noise_;
  EXPECT_TRUE(diff["warnings"].empty()) << "one program, two arguments: " << diff["warnings"].dump();
}

TEST_F(RunDiff, TheTextListsTheChangesWithTheirPaths) {
  const ProcessResult result = diff_command("before", "after");
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::vector<std::string> lines = lines_of(result.out);
  auto line_with = [&](const std::string& text) -> std::string {
    for (const std::string& line : lines)
      if (line.find(text) != std::string::npos) return line;
    return {};
  };
  EXPECT_NE(line_with("execution time").find("speedup"), std::string::npos) << result.out;
  const std::string solve = line_with("solve  run_diff.cpp");
  ASSERT_FALSE(solve.empty()) << "no line for 'solve' in\n" << result.out;
  EXPECT_NE(solve.find("-0.1"), std::string::npos) << "a change of about -0.150 s: " << solve;
  EXPECT_NE(solve.find("%"), std::string::npos) << solve;
  EXPECT_NE(line_with("refine  run_diff.cpp").find(" new "), std::string::npos) << result.out;
  EXPECT_LT(result.out.find("solve  run_diff.cpp"), result.out.find("refine  run_diff.cpp"))
      << "the largest change first:\n"
      << result.out;
}

TEST_F(RunDiff, TheOtherWayRoundTheIntervalVanished) {
  const auto diff = diff_json("after", "before");
  const auto* refine = interval_named(diff, "refine");
  ASSERT_NE(refine, nullptr) << diff.dump(2);
  EXPECT_EQ((*refine)["status"], "vanished") << "'refine' ran in A (after) and not in B (before)";
  EXPECT_TRUE((*refine)["b"].is_null());
}

TEST_F(RunDiff, TwoThreadCountsGiveTheSpeedupOfTheWork) {
  const auto diff = diff_json("threads2", "threads4");
  EXPECT_TRUE(diff["program"]["processors_differ"].get<bool>()) << diff["program"].dump();
  EXPECT_FALSE(diff["program"]["scaling_efficiency"].is_null()) << diff["program"].dump();
  const auto* work = interval_named(diff, "work");
  ASSERT_NE(work, nullptr) << diff.dump(2);
  EXPECT_EQ((*work)["a"]["processors"], 2);
  EXPECT_EQ((*work)["b"]["processors"], 4);
  EXPECT_NEAR(number((*work)["a"], "execution_time"), 0.120, kTolerance + late_threads_)
      << "240 ms over 2 threads; " << noise_;
  EXPECT_NEAR(number((*work)["b"], "execution_time"), 0.060, kTolerance + late_threads_)
      << "240 ms over 4 threads; " << noise_;
  const ProcessResult text = diff_command("threads2", "threads4");
  EXPECT_NE(text.out.find("different counts"), std::string::npos) << text.out;
}

TEST_F(RunDiff, ADirectoryThatIsNoRunIsNamed) {
  const TempDir empty;
  const ProcessResult result =
      run_process({parperf_command().string(), "diff", (*dir_ / "before").string(), empty.path().string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.err.rfind("parperf: ", 0), 0u) << result.err;
  EXPECT_NE(result.err.find(empty.path().string()), std::string::npos)
      << "the message should name the directory that is not a run: " << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

}  // namespace
}  // namespace parperf::test
