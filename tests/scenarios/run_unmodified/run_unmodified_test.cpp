// Scenario: `parperf run -o DIR -- busy_program alpha "two words"`, where busy_program is a plain C
// program linked against nothing of parperf's: the runtime gets in through LD_PRELOAD only.
//
// Expected, and why:
// - exit status 0 and the very stdout of the unmeasured run: measuring must not change the program;
// - DIR/run.json records the command exactly as given (the argument with a space stays one), the
//   exit status, the absolute DIR passed to the runtime and the pid it was told to measure;
// - exactly one profile, profile.0.ppf: the helper shell the program starts inherits LD_PRELOAD but
//   not the measured pid, so it writes nothing (had it written, it would have replaced the program's
//   profile with one of a few milliseconds, which the duration check below would catch);
// - the `program` interval lasts as long as main() did, ±50 ms: the runtime starts before main and
//   ends after it (loader, atexit), a few milliseconds each on an idle machine.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr double kDurationTolerance = 0.050;

const std::vector<std::string> kProgram = {PARPERF_PROGRAM_RUN_UNMODIFIED_PROGRAM, "alpha", "two words"};

std::vector<std::string> parperf_run(const std::vector<std::string>& options) {
  std::vector<std::string> argv = {parperf_command().string(), "run"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--");
  argv.insert(argv.end(), kProgram.begin(), kProgram.end());
  return argv;
}

// How long main() ran, from the line busy_program prints on stderr; negative when it is missing.
double main_duration(const ProcessResult& result) {
  for (const auto& line : lines_of(result.err)) {
    double seconds = 0;
    if (std::sscanf(line.c_str(), "busy_program: main ran %lf s", &seconds) == 1) return seconds;
  }
  return -1;
}

TEST(RunUnmodified, ProgramBehavesAsWhenUnmeasured) {
  TempDir tmp;
  const auto plain = run_process(kProgram);
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  const auto measured = run_process(parperf_run({"-o", (tmp / "run").string()}));
  ASSERT_EQ(measured.exit_code, 0) << describe(measured);
  EXPECT_EQ(measured.out, plain.out) << "measuring changed what the program printed";
  EXPECT_NE(measured.out.find("helper shell says hello"), std::string::npos);
  EXPECT_NE(measured.err.find("parperf: profile written to " + (tmp / "run").string()), std::string::npos)
      << describe(measured);
}

TEST(RunUnmodified, QuietPrintsNothingOfItsOwn) {
  TempDir tmp;
  const auto measured = run_process(parperf_run({"-q", "-o", (tmp / "run").string()}));
  ASSERT_EQ(measured.exit_code, 0) << describe(measured);
  for (const auto& line : lines_of(measured.err)) EXPECT_NE(line.rfind("parperf:", 0), 0u) << line;
}

TEST(RunUnmodified, RunJsonDescribesTheRun) {
  TempDir tmp;
  const auto run_directory = tmp / "run";
  const double before = static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count()) *
                        1e-6;
  const auto measured = run_process(parperf_run({"-o", run_directory.string()}));
  ASSERT_EQ(measured.exit_code, 0) << describe(measured);

  auto info = read_json_file(run_directory / "run.json");
  ASSERT_TRUE(info.is_object());
  EXPECT_EQ(info["parperf_run_format"], 1);
  EXPECT_TRUE(info["parperf_version"].is_string());
  EXPECT_EQ(info["command"], nlohmann::json(kProgram)) << "the command must be recorded word for word";
  EXPECT_EQ(info["working_directory"], std::filesystem::current_path().string());
  EXPECT_FALSE(info["hostname"].get<std::string>().empty());
  EXPECT_NEAR(number(info, "start_unix_s"), before, 5.0);
  EXPECT_GE(number(info, "wall_time_s"), 0.2) << "the program computes for 200 ms";
  EXPECT_EQ(info["exit_code"], 0);
  EXPECT_TRUE(info["signal"].is_null());
  EXPECT_EQ(info["profiles"], nlohmann::json::array({"profile.0.ppf"}))
      << "only the program itself is measured";
  EXPECT_EQ(info["environment"]["PARPERF_DIR"], run_directory.string());
  EXPECT_GT(std::stol(info["environment"].value("PARPERF_PID", "0")), 0);
}

TEST(RunUnmodified, ReportShowsTheProgramsDuration) {
  TempDir tmp;
  const auto run_directory = tmp / "run";
  const auto measured = run_process(parperf_run({"-o", run_directory.string()}));
  ASSERT_EQ(measured.exit_code, 0) << describe(measured);
  ASSERT_TRUE(std::filesystem::is_regular_file(run_directory / "profile.0.ppf"));
  const double main_seconds = main_duration(measured);
  ASSERT_GE(main_seconds, 0.2) << describe(measured);

  const auto report = report_json(run_directory);
  const auto* program = find_interval(report, "program");
  ASSERT_NE(program, nullptr) << "no `program` interval in the report:\n" << report.dump(2);
  EXPECT_NEAR(number(*program, "execution_time"), main_seconds, kDurationTolerance)
      << "the program interval should last as long as main() (" << main_seconds << " s)";
}

}  // namespace
}  // namespace parperf::test
