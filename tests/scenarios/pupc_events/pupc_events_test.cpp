// Scenario: the pupc user API (include/parperf/pupc.h) on pupc_program.c, whose events are known by
// construction: STEPS "solve" events of SOLVE_MS + EXCHANGE_MS ms, each holding one "exchange" of
// EXCHANGE_MS ms, STEPS atomic "checkpoint"s, and HIDDEN "solve" events while recording is off.
// The report (text and JSON) counts and times them; `parperf trace` shows each start's arguments;
// a run that nests its events wrongly is told so.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace fs = std::filesystem;
namespace {

constexpr int kSteps = 20;
constexpr double kSolveOwn = 0.002;
constexpr double kExchange = 0.003;

const nlohmann::json& event_named(const nlohmann::json& interval, const std::string& name) {
  for (const nlohmann::json& e : field(interval, "events"))
    if (text_of(e, "name") == name) return e;
  ADD_FAILURE() << "the report has no user event \"" << name << "\" in interval " << text_of(interval, "name")
                << ": " << field(interval, "events").dump();
  return null_json();
}

class PupcEvents : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = std::make_unique<TempDir>();
    result_ = std::make_unique<ProcessResult>(
        run_process({parperf_command().string(), "run", "-q", "--trace", "-o", (*tmp_ / "run").string(), "--",
                     PARPERF_PROGRAM_PUPC_PROGRAM}));
    measured_ = result_->exit_code == 0;
    if (!measured_) std::fprintf(stderr, "parperf run --trace failed:\n%s\n", describe(*result_).c_str());
  }
  static void TearDownTestSuite() {
    tmp_.reset();
    result_.reset();
  }
  void SetUp() override { ASSERT_TRUE(measured_) << "see the failure of parperf run above"; }

  static std::unique_ptr<TempDir> tmp_;
  static std::unique_ptr<ProcessResult> result_;
  static bool measured_;
};
std::unique_ptr<TempDir> PupcEvents::tmp_;
std::unique_ptr<ProcessResult> PupcEvents::result_;
bool PupcEvents::measured_ = false;

TEST_F(PupcEvents, PupcControlSaysWhetherRecordingWasOn) {
  EXPECT_NE(result_->out.find("control was 1 0"), std::string::npos)
      << "pupc_control(0) must return 1 (recording was on) and pupc_control(1) 0; the program said:\n"
      << result_->out;
  EXPECT_EQ(result_->err.find("parperf:"), std::string::npos) << "a correctly nested program got a warning:\n"
                                                              << result_->err;
}

TEST_F(PupcEvents, TheReportCountsAndTimesNestedEventsAndLeavesOutThoseWhileRecordingWasOff) {
  const nlohmann::json report = report_json(*tmp_ / "run");
  const nlohmann::json* program = find_interval(report, "program");
  ASSERT_NE(program, nullptr) << "no program interval in the report";
  const double overshoot = sleep_overshoot(*result_);

  const nlohmann::json& solve = event_named(*program, "solve");
  EXPECT_EQ(integer(solve, "starts"), kSteps)
      << "solve: the " << 5 << " events while recording was off count";
  EXPECT_EQ(integer(solve, "ends"), kSteps);
  EXPECT_EQ(text_of(solve, "description"), "solve of step %d with %s");
  EXPECT_EQ(text_of(solve, "first_description"), "solve of step 0 with jacobi")
      << "the first start's arguments fill in the description";
  const nlohmann::json& exchange = event_named(*program, "exchange");
  EXPECT_EQ(integer(exchange, "starts"), kSteps);
  EXPECT_EQ(integer(exchange, "ends"), kSteps);
  EXPECT_EQ(text_of(exchange, "first_description"), "exchange of 1024 bytes to thread 0");
  const nlohmann::json& checkpoint = event_named(*program, "checkpoint");
  EXPECT_EQ(integer(checkpoint, "atomics"), kSteps);
  EXPECT_EQ(integer(checkpoint, "starts"), 0);

  // Each exchange lasts its sleep; each solve its own sleep plus the exchange inside it.
  const double exchange_total = number(exchange, "total");
  const double solve_total = number(solve, "total");
  EXPECT_GE(exchange_total, kSteps * kExchange);
  EXPECT_LE(exchange_total, kSteps * kExchange + overshoot + 0.002);
  EXPECT_GE(solve_total, kSteps * (kSolveOwn + kExchange));
  EXPECT_LE(solve_total, kSteps * (kSolveOwn + kExchange) + overshoot + 0.004);
  EXPECT_GE(number(solve, "min"), number(exchange, "min") + kSolveOwn)
      << "the shortest solve must hold an exchange and its own " << kSolveOwn * 1e3 << " ms";

  // The text report's details say the same.
  const auto text =
      run_process({parperf_command().string(), "report", "--details", (*tmp_ / "run").string()});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("\"solve\"  starts 20  ends 20"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\"checkpoint\"  starts 0  ends 0  atomics 20"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("first: \"exchange of 1024 bytes to thread 0\""), std::string::npos) << text.out;
}

TEST_F(PupcEvents, TheTraceKeepsEveryStartsArguments) {
  const auto listing = run_process({parperf_command().string(), "trace", (*tmp_ / "run").string()});
  ASSERT_EQ(listing.exit_code, 0) << describe(listing);
  for (int step = 0; step < kSteps; ++step) {
    const std::string solve = "solve of step " + std::to_string(step) + " with jacobi";
    const std::string exchange =
        "exchange of " + std::to_string(1024 * (step + 1)) + " bytes to thread " + std::to_string(step % 4);
    const std::string checkpoint = "checkpoint " + std::to_string(step);
    EXPECT_NE(listing.out.find(solve), std::string::npos) << "step " << step << ": no \"" << solve << "\"";
    EXPECT_NE(listing.out.find(exchange), std::string::npos)
        << "step " << step << ": no \"" << exchange << "\"";
    EXPECT_NE(listing.out.find(checkpoint + "\""), std::string::npos)
        << "step " << step << ": no \"" << checkpoint << "\"";
  }
  EXPECT_EQ(listing.out.find("hidden"), std::string::npos)
      << "an event while recording was off is in the trace";
}

TEST(PupcNesting, AnEndInTheWrongOrderAndAnEndWithoutStartAreReported) {
  TempDir tmp;
  const ProcessResult result = measure(tmp / "run", {PARPERF_PROGRAM_PUPC_PROGRAM, "misnest"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.err.find("user event 'solve' ended while 'exchange', started after it on this thread, is "
                            "still open"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("user event 'checkpoint' ended without a start on this thread"),
            std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace parperf::test
