// Scenario: `parperf run` on a pthreads program that knows nothing of parperf (threads_program.c):
// 100 ms on the main thread alone, then two threads of 60 ms and 180 ms (sleeping to their deadlines,
// so the lengths hold on a busy machine; the lower bounds allow only the clock calibration's error,
// the upper ones also the late wake-ups the program measured, support/sleep_overshoot.hpp).
//
// The runtime registers each thread when it starts (its pthread_create hook), so the `program`
// interval has three processors: the main thread for the whole run (about 0.280 s), and the two
// threads for their lifetimes. Idle time is what the threads did not exist for:
// (0.280 - 0.060) + (0.280 - 0.180) = 0.320 s, give or take the main thread's start-up and the
// scheduling delays (+-25 ms over the two).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

TEST(RunUnmodifiedThreads, EveryThreadOfTheProgramIsAProcessor) {
  TempDir tmp;
  const MachineLoad load;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_RUN_UNMODIFIED_THREADS_PROGRAM});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const double late = sleep_overshoot(result);
  const std::string noise = std::to_string(late) + " s of late wake-ups; " + load.describe();
  EXPECT_EQ(result.out, "done\n") << "measuring must not change the program's output";

  const auto report = report_json(tmp / "run");
  const auto* program = find_interval(report, "program");
  ASSERT_NE(program, nullptr) << report.dump(2);
  ASSERT_EQ((*program)["processors"], 3) << "the main thread and the two threads it started";

  std::vector<double> lifetimes;
  for (const auto& p : (*program)["per_processor"]) lifetimes.push_back(number(p, "execution_time"));
  std::sort(lifetimes.begin(), lifetimes.end());
  EXPECT_GE(lifetimes[0], reported_at_least(0.060)) << "the short thread's 60 ms";
  EXPECT_LE(lifetimes[0], 0.075 + late) << noise;
  EXPECT_GE(lifetimes[1], reported_at_least(0.180)) << "the long thread's 180 ms";
  EXPECT_LE(lifetimes[1], 0.195 + late) << noise;
  EXPECT_GE(lifetimes[2], reported_at_least(0.280))
      << "the main thread: 100 ms alone, then as long as the long thread";
  EXPECT_LE(lifetimes[2], 0.320 + late) << noise;
  const double expected_idle = 2 * lifetimes[2] - lifetimes[0] - lifetimes[1];
  EXPECT_NEAR(number(*program, "idle_time"), expected_idle, 1e-6) << "idle = sum of (execution - lifetime)";
  // 2 x main - short - long: a late wake-up of the main thread counts twice.
  EXPECT_NEAR(number(*program, "idle_time"), 0.320, 0.025 + 2 * late) << noise;
}

}  // namespace
}  // namespace parperf::test
