// Scenario: the findings name the function a late thread spends its extra time in (late_function.c).
//
// Ground truth: in each of 4 repetitions of a 3-thread parallel region, thread 0 runs g for 50 ms and
// f for 200 ms of its CPU time, threads 1 and 2 run g for 50 ms and wait at the region's implicit
// barrier. Expected: the finding on that barrier names thread 0 as the late one and f at
// cpu_work.h (a line of f's body), with f's share of thread 0's samples in the region 200 / 250
// = 80 %. Tolerance 8 points: at 1 kHz thread 0 takes about 1000 samples in the region, so the share's
// sampling error is about 1.3 points; the rest is the time thread 0 spends outside f and g (the
// region's start and end, the clock reads, which land in the vDSO), a few points at most. Balanced,
// the threads run the same function and no function may be blamed. With wall-clock samples, where
// the waiting threads wait may be named, but never as their work.
#include <gtest/gtest.h>

#include <string>

#include "support/artifacts.hpp"
#include "support/mpi_run.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

constexpr double kFShare = 0.8;
constexpr double kTolerance = 0.08;

ProcessOptions sampled(const std::string& clock) {
  ProcessOptions options;
  options.env = {{"PARPERF_SAMPLE_HZ", "1000"}, {"PARPERF_SAMPLE_CLOCK", clock}};
  return options;
}

json measured_report(const TempDir& tmp, const std::string& program, const std::vector<std::string>& args,
                     const std::string& clock = "cpu") {
  std::vector<std::string> command{program};
  command.insert(command.end(), args.begin(), args.end());
  const auto result = measure(tmp / "run", command, sampled(clock));
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  return report_json(tmp / "run");
}

// The finding whose sampled cause names a function; null when none does.
const json* finding_with_cause(const json& report) {
  for (const json& f : field(report, "findings"))
    if (f.contains("sampled_cause") && f["sampled_cause"].is_object()) return &f;
  return nullptr;
}

std::int64_t marker(const std::string& name) { return marker_line(SAMPLED_FINDINGS_SOURCE, name); }
// f's lines, in the programs' shared work (cpu_work.h).
std::int64_t work_marker(const std::string& name) { return marker_line(SAMPLED_FINDINGS_WORK, name); }

// The cause's first function is f, at a line of its body, with 80 % of the late processor's samples
// (200 of its 250 ms of CPU time a repetition) and none of the waiting ones'. Returns f's line.
std::int64_t expect_f_is_the_cause(const json& cause, const std::string& late, const std::string& waiting) {
  if (cause["functions"].empty()) {
    ADD_FAILURE() << "no function named for " << late << "'s extra time: " << cause.dump(1);
    return 0;
  }
  const json& f = cause["functions"][0];
  EXPECT_EQ(f["function"], "f") << late << "'s extra time is in f, not " << f.dump();
  EXPECT_EQ(file_name_of(f["file"]), "cpu_work.h") << f.dump();
  const std::int64_t line = f["line"].get<std::int64_t>();
  EXPECT_TRUE(line > work_marker("f_begin") && line < work_marker("f_end"))
      << "f's line should be in its body, cpu_work.h:" << work_marker("f_begin") << "-"
      << work_marker("f_end") << ", not " << line;
  EXPECT_NEAR(f["late_share"].get<double>(), kFShare, kTolerance)
      << "f is 200 of " << late << "'s 250 ms of CPU time a repetition: " << cause.dump(1);
  EXPECT_LT(f["waiting_share"].get<double>(), 0.02) << waiting << " never run f: " << cause.dump(1);
  return line;
}

void expect_f_blamed_on_thread_0(const std::string& program) {
  TempDir tmp;
  const json report = measured_report(tmp, program, {});
  const json* blamed = finding_with_cause(report);
  ASSERT_TRUE(blamed)
      << "thread 0 spends 200 ms more than the others in f before the region's barrier, yet no finding "
         "names a function; findings: "
      << field(report, "findings").dump(1);
  const json& finding = *blamed;
  EXPECT_EQ(finding["rule"], "unbalanced_barrier") << finding.dump(1);
  EXPECT_EQ(finding["location"]["line"], marker("region"))
      << "the finding should be the implicit barrier of the region at late_function.c:" << marker("region");
  const json& cause = finding["sampled_cause"];
  EXPECT_EQ(cause["late"], json::array({0})) << "thread 0 is the late one: " << cause.dump(1);
  EXPECT_EQ(cause["waiting"], json::array({1, 2})) << "threads 1 and 2 wait for it: " << cause.dump(1);
  const std::int64_t line = expect_f_is_the_cause(cause, "thread 0", "threads 1 and 2");
  const std::string text = finding["text"].get<std::string>();
  EXPECT_NE(text.find("thread 0 spends"), std::string::npos) << text;
  EXPECT_NE(text.find("in f (cpu_work.h:" + std::to_string(line) + ")"), std::string::npos) << text;
  EXPECT_NE(text.find("threads 1-2"), std::string::npos) << text;
}

void expect_nothing_blamed_when_balanced(const std::string& program) {
  TempDir tmp;
  const json report = measured_report(tmp, program, {"balanced"});
  const json* blamed = finding_with_cause(report);
  EXPECT_FALSE(blamed) << "every thread runs g for 50 ms and nothing else, yet a finding blames a function: "
                       << (blamed ? blamed->dump(1) : "");
}

TEST(SampledFindings, ClangNamesFOnThread0) {
  expect_f_blamed_on_thread_0(PARPERF_PROGRAM_LATE_FUNCTION_CLANG);
}
TEST(SampledFindings, GccNamesFOnThread0) { expect_f_blamed_on_thread_0(PARPERF_PROGRAM_LATE_FUNCTION_GCC); }
TEST(SampledFindings, ClangBalancedBlamesNothing) {
  expect_nothing_blamed_when_balanced(PARPERF_PROGRAM_LATE_FUNCTION_CLANG);
}
TEST(SampledFindings, GccBalancedBlamesNothing) {
  expect_nothing_blamed_when_balanced(PARPERF_PROGRAM_LATE_FUNCTION_GCC);
}

// Wall-clock samples: f is still thread 0's, and where the others wait, when named, is never their
// work (f or g). Not required to be named: on a loaded machine a preempted thread's wall-clock samples
// land where the kernel resumes it (a clock read's return, [vdso], which the libomp spin loop of the
// waiting threads reads too), so the late thread can have a share of the waiting ones' innermost
// function, and then the analysis names none (docs/diagnosis.md, kLateHardlyRuns).
TEST(SampledFindings, WallClockSamplesNeverTakeWorkForTheWait) {
  TempDir tmp;
  const json report = measured_report(tmp, PARPERF_PROGRAM_LATE_FUNCTION_CLANG, {}, "wall");
  const json* blamed = finding_with_cause(report);
  ASSERT_TRUE(blamed) << field(report, "findings").dump(1);
  const json& cause = (*blamed)["sampled_cause"];
  EXPECT_EQ(cause["clock"], "wall");
  EXPECT_EQ(cause["late"], json::array({0})) << cause.dump(1);
  EXPECT_EQ(cause["functions"][0]["function"], "f") << cause.dump(1);
  if (cause["waiting_in"].is_object()) {
    EXPECT_NE(cause["waiting_in"]["function"], "f") << "threads 1 and 2 never run f: " << cause.dump(1);
    EXPECT_NE(cause["waiting_in"]["function"], "g")
        << "g is the work every thread does, not where threads 1 and 2 wait: " << cause.dump(1);
  }
}

// `parperf report --functions` says it under the region, with the finding's number.
TEST(SampledFindings, FunctionsListingSaysWhyThreadsWait) {
  TempDir tmp;
  measured_report(tmp, PARPERF_PROGRAM_LATE_FUNCTION_CLANG, {});
  const auto text =
      run_process({parperf_command().string(), "report", "--functions", (tmp / "run").string()});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("why processors wait (finding"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("thread 0 spends"), std::string::npos) << text.out;
}

// An MPI job: rank 1 runs f for 200 ms of CPU time before each of 4 MPI_Allreduce calls while rank 0
// waits there (late_rank_function.c). The late-rank finding names rank 1 at the call's line and f as
// the reason, with 80 % of rank 1's samples (8 points: its start-up, MPI calls and clock reads).
TEST(SampledFindings, MpiLateRankNamesFOnRank1) {
  TempDir tmp;
  ProcessOptions options = sampled("cpu");
  options.timeout_seconds = kMpiTimeoutSeconds;
  const auto result = mpi_measure(2, tmp / "run", {PARPERF_PROGRAM_LATE_RANK_FUNCTION}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json report = report_json(tmp / "run");
  const json* blamed = finding_with_cause(report);
  ASSERT_TRUE(blamed)
      << "rank 1 spends 200 ms more than rank 0 in f before each MPI_Allreduce, yet no finding "
         "names a function; findings: "
      << field(report, "findings").dump(1);
  const json& finding = *blamed;
  EXPECT_EQ(finding["rule"], "mpi_late_rank") << finding.dump(1);
  const std::int64_t allreduce = marker_line(SAMPLED_FINDINGS_MPI_SOURCE, "allreduce");
  EXPECT_EQ(finding["location"]["line"], allreduce)
      << "the finding should be MPI_Allreduce at late_rank_function.c:" << allreduce;
  const json& cause = finding["sampled_cause"];
  EXPECT_EQ(cause["unit"], "rank") << cause.dump(1);
  EXPECT_EQ(cause["late"], json::array({1})) << "rank 1 is the late one: " << cause.dump(1);
  EXPECT_EQ(cause["waiting"], json::array({0})) << "rank 0 waits for it: " << cause.dump(1);
  expect_f_is_the_cause(cause, "rank 1", "rank 0");
  const std::string text = finding["text"].get<std::string>();
  EXPECT_NE(text.find("rank 1 spends"), std::string::npos) << text;
}

}  // namespace
}  // namespace parperf::test
