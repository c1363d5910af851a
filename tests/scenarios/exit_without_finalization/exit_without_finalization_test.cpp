// Scenario: programs that end without their exit handlers (leave_early.c), after a vfork child has
// called _exit (which must not count as the parent's end).
//
// _exit() and quick_exit() skip atexit handlers and library destructors; the runtime's _exit hook
// and at_quick_exit handler write the profile anyway: the exit status is the program's (3 or 4) and
// the report holds "unfinished" as an entry still open when the program left (exit() inside an
// interval does not complete it), while the `program` interval ends with the process.
#include <gtest/gtest.h>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

void expect_profile_after(const std::string& how, int expected_status) {
  TempDir tmp;
  const auto run = tmp / "run";
  const auto result = measure(run, {PARPERF_PROGRAM_EXIT_WITHOUT_FINALIZATION_PROGRAM, how});
  EXPECT_EQ(result.exit_code, expected_status) << describe(result);
  ASSERT_TRUE(std::filesystem::exists(run / "profile.0.ppf")) << how << " left no profile\n"
                                                              << describe(result);
  const auto report = report_json(run);
  const auto* unfinished = find_interval(report, "user", "unfinished");
  ASSERT_NE(unfinished, nullptr) << report.dump(2);
  EXPECT_EQ((*unfinished)["count"], 1);
  EXPECT_EQ((*unfinished)["open"], true) << how << " inside 'unfinished' must leave it marked open";
  const auto* program = find_interval(report, "program");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ((*program)["open"], false) << "the program interval ends with the process, not open";
}

TEST(ExitWithoutFinalization, ExitInsideAnIntervalLeavesItOpen) { expect_profile_after("exit", 5); }

TEST(ExitWithoutFinalization, UnderscoreExitStillLeavesTheProfile) { expect_profile_after("_exit", 3); }

TEST(ExitWithoutFinalization, QuickExitStillLeavesTheProfile) { expect_profile_after("quick_exit", 4); }

}  // namespace
}  // namespace parperf::test
