// Scenario: program > solver > sweep (sequential loop, 6 iterations) > level with values 0, 1, 2.
//
// Each value is a separate interval, entered twice, working (value + 1) x 10 ms per entry:
// value 0: 0.020 s, value 1: 0.040 s, value 2: 0.060 s in all; sweep: 0.120 s over 6 iterations.
// The work is a sleep to a wall-clock deadline: it lasts at least what it asks for and overshoots by
// its wake-up only, so the bounds are one-sided-tight: never less (but for the clock calibration's
// 0.05 %, support/clock_tolerance.hpp), at most a few ms more per entry and the late wake-ups the
// program measured (support/sleep_overshoot.hpp: on a machine whose cores are all taken).
// One thread, so every interval has one processor and efficiency 1.
#include <gtest/gtest.h>

#include "support/artifacts.hpp"
#include "support/clock_tolerance.hpp"
#include "support/machine_load.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

TEST(NestedValues, EachValueIsItsOwnIntervalAtTheRightLevel) {
  TempDir tmp;
  const MachineLoad load;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_NESTED_VALUES_PROGRAM});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const double late = sleep_overshoot(result);
  const auto report = report_json(tmp / "run");
  const auto* solver = find_interval(report, "user", "solver");
  ASSERT_NE(solver, nullptr) << report.dump(2);
  EXPECT_EQ((*solver)["level"], 1);
  ASSERT_EQ((*solver)["children"].size(), 1u);
  const auto& sweep = (*solver)["children"][0];
  EXPECT_EQ(sweep["kind"], "sequential_loop");
  EXPECT_EQ(sweep["name"], "sweep");
  EXPECT_EQ(sweep["level"], 2);
  EXPECT_EQ(sweep["iterations"]["count"], 6);
  // Sleeps last at least what they ask for, and a wake-up more.
  EXPECT_GE(number(sweep, "execution_time"), reported_at_least(0.120));
  EXPECT_LE(number(sweep, "execution_time"), 0.150 + late)
      << late << " s of late wake-ups; " << load.describe();

  const auto& levels = sweep["children"];
  ASSERT_EQ(levels.size(), 3u) << "one interval per value of 'level'";
  for (const auto& level : levels) {
    const auto value = level["value"].get<int>();
    SCOPED_TRACE("level with value " + std::to_string(value));
    EXPECT_EQ(level["name"], "level");
    EXPECT_EQ(level["level"], 3);
    EXPECT_EQ(level["count"], 2);
    EXPECT_GE(number(level, "execution_time"), reported_at_least(0.020 * (value + 1)));
    EXPECT_LE(number(level, "execution_time"), 0.020 * (value + 1) + 0.012 + late)
        << late << " s of late wake-ups; " << load.describe();
    EXPECT_NEAR(number(level, "efficiency"), 1.0, 1e-9) << "a single processor loses nothing";
    EXPECT_NE(level["file"].get<std::string>().find("nested_values.cpp"), std::string::npos);
    EXPECT_GT(level["line"].get<int>(), 0);
  }
}

TEST(NestedValues, LevelOptionLimitsTheDepth) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_NESTED_VALUES_PROGRAM});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto report = report_json(tmp / "run", {"--level", "2"});
  EXPECT_NE(find_interval(report, "sequential_loop", "sweep"), nullptr);
  EXPECT_EQ(find_interval(report, "user", "level"), nullptr) << "level 3 is below --level 2";
}

}  // namespace
}  // namespace parperf::test
