// Scenario: the program overflows its stack inside the interval "recursion".
//
// The runtime's SIGSEGV handler runs on a spare signal stack (there is none left on the thread's
// own), writes the profile and lets the signal kill the process as it would have: `parperf run`
// exits with 128 + SIGSEGV = 139, and the report shows "before" complete and "recursion" open.
#include <gtest/gtest.h>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

TEST(CrashStackOverflow, TheProfileSurvivesAStackOverflow) {
  TempDir tmp;
  const auto run = tmp / "run";
  const auto result = measure(run, {PARPERF_PROGRAM_CRASH_STACK_OVERFLOW_PROGRAM});
  EXPECT_EQ(result.exit_code, 139) << "128 + SIGSEGV\n" << describe(result);
  ASSERT_TRUE(std::filesystem::exists(run / "profile.0.ppf")) << describe(result);
  const auto report = report_json(run);
  const auto* before = find_interval(report, "user", "before");
  const auto* recursion = find_interval(report, "user", "recursion");
  ASSERT_TRUE(before && recursion) << report.dump(2);
  EXPECT_EQ((*before)["open"], false);
  EXPECT_EQ((*recursion)["open"], true) << "the program died inside 'recursion'";
  EXPECT_EQ(report["run"]["end_reasons"][0]["signal"], 11);
}

}  // namespace
}  // namespace parperf::test
