// Scenario: eight threads computing at once on one core (oversubscribed.c under `taskset`). Each
// thread's 200 ms in "spin" holds at most its share of the one core, so the threads' CPU time is at
// most the ~200 ms they overlap against 8 x 200 ms of thread time: under 1/8 of their time (1/9 with
// the main thread, which waits in pthread_join) ran on a CPU, whatever else loads the machine. The
// default report must say that first, with the threads and the one core that run.json recorded:
// every other figure of this run (idle time, efficiency) is the threads' turns for the core.
#include <gtest/gtest.h>
#include <sched.h>

#include <regex>
#include <string>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

// The first core this test may run on, for taskset.
int first_allowed_core() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) return cpu;
  return 0;
}

class Oversubscribed : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const ProcessResult result =
        run_process({PARPERF_TASKSET, "-c", std::to_string(first_allowed_core()), parperf_command().string(),
                     "run", "-q", "-o", run().string(), "--", PARPERF_PROGRAM_OVERSUBSCRIBED_PROGRAM});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::filesystem::path run() { return *dir_ / "run"; }
  static TempDir* dir_;
};
TempDir* Oversubscribed::dir_ = nullptr;

TEST_F(Oversubscribed, RunJsonRecordsTheOneCoreTheProgramCouldUse) {
  const nlohmann::json info = read_json_file(run() / "run.json");
  EXPECT_EQ(integer(field(info, "cores"), "allowed"), 1) << "taskset gave the program one core";
  EXPECT_GE(integer(field(info, "cores"), "online"), 1);
}

TEST_F(Oversubscribed, TheFirstFindingSaysTheThreadsSharedOneCore) {
  const ProcessResult result = run_process({parperf_command().string(), "report", run().string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::size_t findings = result.out.find("== FINDINGS");
  ASSERT_NE(findings, std::string::npos) << result.out;
  // The eight workers, and the main thread when its OS CPU time was read at all.
  const std::regex first(
      R"(== FINDINGS[^\n]*\n +1\. (8|9) threads shared 1 core: only ([0-9]+) % of their time)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(result.out, match, first))
      << "the first finding does not say that the threads shared one core:\n"
      << result.out;
  EXPECT_LE(std::stoi(match[2]), 25) << "at most 1/8 of the threads' time can have run on the one core, "
                                        "plus what the threads ran before they overlapped";
}

TEST_F(Oversubscribed, TheJsonFindingGivesItsEvidence) {
  const nlohmann::json report = report_json(run());
  const nlohmann::json& first = field(report, "findings").at(0);
  EXPECT_EQ(first.value("rule", ""), "threads_off_cpu") << first.dump(2);
  const nlohmann::json& evidence = field(first, "evidence");
  EXPECT_EQ(number(evidence, "cores"), 1);
  EXPECT_LE(number(evidence, "on_cpu_share"), 0.25);
  EXPECT_LE(number(evidence, "cpu_time"), 1.1 * number(evidence, "thread_time") / 8)
      << "one core among eight busy threads";
}

}  // namespace
}  // namespace parperf::test
