// Scenario: the same annotations from C, C++ and Fortran reach the report.
//
// Each program enters "compute" with value 1 and inside it the parallel loop "rows" with 4 marked
// iterations (the C++ one inside a sequential loop "steps" of 3 iterations, so 12 row iterations),
// and records a user event "send". The C and Fortran programs also enter "skipped" while recording
// is off, which must not appear.
#include <gtest/gtest.h>

#include <functional>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

nlohmann::json measured_report(const std::string& program) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {program});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_FALSE(result.out.empty()) << "the program prints its result";
  return report_json(tmp / "run");
}

void expect_common_shape(const nlohmann::json& report, int row_iterations) {
  const auto* compute = find_interval(report, "user", "compute");
  ASSERT_NE(compute, nullptr) << report.dump(2);
  EXPECT_EQ((*compute)["value"], 1);
  EXPECT_EQ((*compute)["count"], 1);
  const auto* rows = find_interval(report, "parallel_loop", "rows");
  ASSERT_NE(rows, nullptr) << report.dump(2);
  EXPECT_EQ((*rows)["iterations"]["count"], row_iterations);
  EXPECT_GT(number(*rows, "execution_time"), 0.0);
  bool saw_send = false;
  std::function<void(const nlohmann::json&)> visit = [&](const nlohmann::json& interval) {
    for (const auto& e : interval.value("events", nlohmann::json::array()))
      if (e["name"] == "send") saw_send = true;
    for (const auto& child : interval["children"]) visit(child);
  };
  for (const auto& root : report["intervals"]) visit(root);
  EXPECT_TRUE(saw_send) << "the user event 'send' is in the report";
  EXPECT_EQ(find_interval(report, "user", "skipped"), nullptr) << "entered while recording was off";
}

TEST(ApiLanguages, C) {
  const auto report = measured_report(PARPERF_PROGRAM_API_C_PROGRAM);
  expect_common_shape(report, 4);
  EXPECT_NE(find_interval(report, "user", "named_phase"), nullptr);
}

TEST(ApiLanguages, Cpp) {
  const auto report = measured_report(PARPERF_PROGRAM_API_CPP_PROGRAM);
  expect_common_shape(report, 12);
  const auto* steps = find_interval(report, "sequential_loop", "steps");
  ASSERT_NE(steps, nullptr);
  EXPECT_EQ((*steps)["iterations"]["count"], 3);
}

TEST(ApiLanguages, Fortran) {
  const auto report = measured_report(PARPERF_PROGRAM_API_FORTRAN_PROGRAM);
  expect_common_shape(report, 4);
  const auto* compute = find_interval(report, "user", "compute");
  ASSERT_NE(compute, nullptr);
  EXPECT_EQ((*compute)["file"], "api_fortran.f90");
  EXPECT_EQ((*compute)["line"], 12);
}

}  // namespace
}  // namespace parperf::test
