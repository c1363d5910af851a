// Scenario: in the interval "phase", one pthread sleeps 200 ms while another computes 100 ms.
//
// The characteristics are wall-clock based (DESIGN.md section 4): sleeping is time the thread spent
// in the interval, so Execution = 0.200 s, Productive = 0.200 + 0.100 = 0.300 s, Idle = 0.100 s,
// Efficiency = 0.300 / 0.400 = 0.75. The OS CPU time beside them tells the two apart: about 0.100 s
// of user CPU in all (exactly: what the computing thread measured itself and printed), and almost
// none of it (< 10 ms) on the sleeping thread.
// The computing thread must use the CPU (that is what the test is about): on a machine whose cores
// other processes keep busy it may lose its core near its deadline and end a time slice late, and the
// sleeper may wake late. The program measures both (support/sleep_overshoot.hpp): the bounds widen
// by that, and the failures say how busy the machine was.
#include <gtest/gtest.h>

#include <cstdio>

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

TEST(SleepingThread, WallClockCountsTheSleepAndOsCpuTimeDoesNot) {
  TempDir tmp;
  const MachineLoad load;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_SLEEPING_THREAD_PROGRAM});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const double late = sleep_overshoot(result);
  const std::string noise = std::to_string(late) + " s of late wake-ups and ends; " + load.describe();
  const auto report = report_json(tmp / "run");
  const auto* phase = find_interval(report, "user", "phase");
  ASSERT_NE(phase, nullptr) << report.dump(2);
  EXPECT_EQ((*phase)["processors"], 2);
  EXPECT_NEAR(number(*phase, "execution_time"), 0.200, kTolerance + late)
      << "the sleeper's 200 ms; " << noise;
  EXPECT_NEAR(number(*phase, "productive_time"), 0.300, 2 * kTolerance + late)
      << "200 ms asleep + 100 ms computing; " << noise;
  EXPECT_NEAR(number(*phase, "idle_time"), 0.100, kTolerance + late)
      << "the computing thread is done 100 ms early; " << noise;
  // Late ends add up to `late` to the productive time and twice that to the total (2 x 200 ms).
  EXPECT_NEAR(number(*phase, "efficiency"), 0.75, 0.04 + late / 0.25) << noise;
  double computing_cpu = -1;
  for (const auto& line : lines_of(result.out))
    std::sscanf(line.c_str(), "computing thread cpu %lf s", &computing_cpu);
  ASSERT_GT(computing_cpu, 0.0) << "the program reports the CPU time its computing thread got\n"
                                << result.out;
  // Reads are rate-limited to one per 100 us and the kernel splits user/system by ticks: 10 ms.
  EXPECT_NEAR(number(*phase, "os_cpu_user") + number(*phase, "os_cpu_sys"), computing_cpu, 0.010)
      << "only the computing thread uses the CPU (about 100 ms on an idle machine)";

  EXPECT_NE((*phase)["diagnosis"].get<std::string>().find("ran on a CPU"), std::string::npos)
      << "the diagnosis must say the time was largely spent off the CPU: " << (*phase)["diagnosis"];

  const auto& processors = (*phase)["per_processor"];
  ASSERT_EQ(processors.size(), 2u);
  const auto& sleeper = number(processors[0], "execution_time") > number(processors[1], "execution_time")
                            ? processors[0]
                            : processors[1];
  EXPECT_NEAR(number(sleeper, "execution_time"), 0.200, kTolerance + late) << noise;
  EXPECT_LT(number(sleeper, "os_cpu_user") + number(sleeper, "os_cpu_sys"), 0.010)
      << "a sleeping thread uses almost no CPU";
}

}  // namespace
}  // namespace parperf::test
