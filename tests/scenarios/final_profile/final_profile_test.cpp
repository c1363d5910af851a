// Scenario: the final profile is complete and honest when the process ends while the runtime is busy
// or limited (final_profile_program.c).
// - An exit while other threads flush: the final write waits for (or outruns) the flushes, so the
//   profile says the program exited and holds every thread's 200 completed entries — before the fix
//   the exit often found a flush in progress and kept that flush's stale file ("ended: flush",
//   threads under-counted by up to a fifth).
// - Threads beyond PARPERF_MAX_THREADS: the report says how many were not measured instead of
//   showing fewer threads silently.
// - The profile's names are predictable (run directory, `profile.0.ppf.partial`): a link planted
//   there by another user must not make the runtime overwrite the file it points to, and a run
//   directory someone else owns is refused; the program runs to completion either way.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

const std::string kProgram = PARPERF_PROGRAM_FINAL_PROFILE_PROGRAM;
constexpr int kThreads = 64;
constexpr int kEntries = 200;

bool has_warning_containing(const nlohmann::json& report, const std::string& text) {
  for (const auto& warning : report["run"]["warnings"])
    if (warning.is_string() && warning.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

TEST(FinalProfile, ExitDuringFlushesKeepsTheFinalProfile) {
  for (int attempt = 0; attempt < 4; ++attempt) {  // the race needs a few tries to show reliably
    TempDir tmp;
    const auto run = tmp / "run";
    const auto result = measure(run, {kProgram, "flush-race"});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    const auto report = report_json(run);
    ASSERT_TRUE(report["run"]["end_reasons"].is_array()) << report.dump(2).substr(0, 2000);
    EXPECT_EQ(report["run"]["end_reasons"][0]["reason"], "exit")
        << "attempt " << attempt << ": the profile kept is a flush's, not the final one";
    const auto* work = find_interval(report, "user", "work");
    ASSERT_NE(work, nullptr);
    EXPECT_EQ((*work)["count"], kThreads * kEntries)
        << "attempt " << attempt << ": entries of 'work' lost: the final profile is a stale flush";
    EXPECT_FALSE(std::filesystem::exists(run / "profile.0.ppf.partial"))
        << "a flush's temporary file remains";
  }
}

TEST(FinalProfile, ThreadsBeyondTheLimitAreCountedInTheReport) {
  TempDir tmp;
  const auto run = tmp / "run";
  ProcessOptions options;
  options.env = {{"PARPERF_MAX_THREADS", "4"}};
  const auto result = measure(run, {kProgram, "many-threads", "10"}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto report = report_json(run);
  // The main thread and the first 3 threads started are measured; the other 7 are not.
  EXPECT_TRUE(has_warning_containing(report, "7 threads were not measured"))
      << "the report must say that 7 of 11 threads are missing:\n"
      << report["run"]["warnings"].dump(2);
  const auto* work = find_interval(report, "user", "work");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ((*work)["count"], 3) << "the 3 measured threads completed one entry each";
}

std::string contents_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A setting the runtime cannot read is named on stderr and changes nothing, never ignored silently.
TEST(FinalProfile, UnreadableSettingsAreReportedAndIgnored) {
  for (const auto& [name, value] :
       {std::pair{"PARPERF_TEST_CLOCK_SKEW", "0:5ms"}, std::pair{"PARPERF_TEST_CLOCK_SKEW", "zero"},
        std::pair{"PARPERF_MAX_THREADS", "many"}}) {
    TempDir tmp;
    ProcessOptions options;
    options.env = {{"PARPERF_DIR", (tmp / "run").string()}, {name, value}};
    const auto result = run_process({kProgram, "many-threads", "1"}, options);
    EXPECT_EQ(result.exit_code, 0) << describe(result);
    EXPECT_NE(result.err.find(std::string(name) + "='" + value + "'"), std::string::npos)
        << name << "=" << value << " must be reported: " << describe(result);
  }
}

TEST(FinalProfile, LinkPlantedAtTheTemporaryNameIsNotFollowed) {
  TempDir tmp;
  const auto run = tmp / "run";
  std::filesystem::create_directories(run);
  const auto victim = tmp / "victim.txt";
  std::ofstream(victim) << "precious\n";
  std::filesystem::create_symlink(victim, run / "profile.0.ppf.partial");
  ProcessOptions options;
  options.env = {{"PARPERF_DIR", run.string()}};
  const auto result = run_process({kProgram, "many-threads", "1"}, options);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(contents_of(victim), "precious\n") << "the runtime wrote its profile through the planted link";
  EXPECT_TRUE(std::filesystem::exists(run / "profile.0.ppf")) << describe(result);
}

TEST(FinalProfile, RunDirectoryOwnedBySomeoneElseIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a directory to another user";
  TempDir tmp;
  const auto run = tmp / "run";
  std::filesystem::create_directories(run);
  ASSERT_EQ(chown(run.c_str(), 65534, 65534), 0);  // nobody
  ProcessOptions options;
  options.env = {{"PARPERF_DIR", run.string()}};
  const auto result = run_process({kProgram, "many-threads", "1"}, options);
  EXPECT_EQ(result.exit_code, 0) << "the program must run to completion: " << describe(result);
  EXPECT_FALSE(std::filesystem::exists(run / "profile.0.ppf")) << "wrote into a directory another user owns";
  EXPECT_NE(result.err.find("cannot write the profile to '" + run.string() + "'"), std::string::npos)
      << describe(result);
}

}  // namespace
}  // namespace parperf::test
