// Scenario: the program aborts 50 ms into the interval "doomed", after a complete 20 ms "setup".
//
// The runtime's SIGABRT handler writes the profile and re-raises the signal, so: `parperf run`
// exits with 128 + SIGABRT = 134; the profile holds "setup" (one entry, 20 ms) and "doomed" as an
// open entry of 50 ms; the report says the program was killed by signal 6 and shows "doomed" open.
// The work is sleeping: each interval lasts at least its sleep (less the clock calibration's error,
// support/clock_tolerance.hpp) and at most its sleep, the late wake-up the program reports, and
// 10 ms (20 ms for the abort's handling) more.
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

TEST(AbortMidInterval, TheProfileCoversTheRunUpToTheAbort) {
  TempDir tmp;
  const auto run = tmp / "run";
  const MachineLoad load;
  const auto result = measure(run, {PARPERF_PROGRAM_ABORT_MID_INTERVAL_PROGRAM});
  const double late = sleep_overshoot(result);
  EXPECT_EQ(result.exit_code, 134) << "128 + SIGABRT: the program must die as it would unmeasured\n"
                                   << describe(result);
  ASSERT_TRUE(std::filesystem::exists(run / "profile.0.ppf")) << describe(result);

  const auto report = report_json(run);
  const auto* setup = find_interval(report, "user", "setup");
  const auto* doomed = find_interval(report, "user", "doomed");
  ASSERT_TRUE(setup && doomed) << report.dump(2);
  EXPECT_EQ((*setup)["count"], 1);
  EXPECT_EQ((*setup)["open"], false);
  EXPECT_GE(number(*setup, "execution_time"), reported_at_least(0.020)) << "20 ms of sleep";
  EXPECT_LE(number(*setup, "execution_time"), 0.020 + 0.010 + late)
      << "20 ms of sleep, " << late << " s of late wake-ups; " << load.describe();
  EXPECT_EQ((*doomed)["open"], true) << "'doomed' was still running when the program aborted";
  EXPECT_GE(number(*doomed, "execution_time"), reported_at_least(0.050)) << "counted up to the abort";
  EXPECT_LE(number(*doomed, "execution_time"), 0.050 + 0.020 + late)
      << "counted up to the abort; " << late << " s of late wake-ups; " << load.describe();

  const auto text = run_process({parperf_command().string(), "report", run.string()});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("signal 6"), std::string::npos) << "the report must say the run was cut short\n"
                                                          << text.out;
}

}  // namespace
}  // namespace parperf::test
