// Scenario: a new user's mistakes, and names that carry terminal control characters. Each message
// must say, in the user's terms, what is wrong and what to do:
// - `parperf run --bogus -- ./x` names the unknown option (it said "not expected: -- --bogus");
// - `parperf reprot d` suggests `report` (it said "A subcommand is required");
// - `parperf run -- /tmp` says the program is a directory (it said "Permission denied");
// - `parperf report A B` points to `parperf diff A B`;
// - `parperf export` says which files it wrote (it printed nothing);
// - a program whose name holds ESC, BEL or CR gets a default run directory without them, and
//   `parperf run` writes them escaped, never raw to the terminal;
// - a malformed PARPERF_PID is reported (it silently turned measurement off);
// - `parperf whatif`'s network and scale options that cannot give a finite prediction are refused
//   (latency=1e300 predicted an infinite run, "gain -inf");
// - `parperf report --csv DIR` where DIR cannot be made says which directory and why (it printed
//   "filesystem error: cannot create directories: ..." in the library's words);
// - `--np K` on a directory that is no run, or a run without traces to replay, is refused in one line
//   before any job starts (the job said it, then mpirun's notice of the job it aborted).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

namespace fs = std::filesystem;

ProcessResult parperf(const std::vector<std::string>& arguments, const ProcessOptions& options = {}) {
  std::vector<std::string> argv = {parperf_command().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process(argv, options);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool has_control_characters(const std::string& text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
  return false;
}

TEST(CommandLineMessages, AnUnknownOptionOfRunIsNamed) {
  TempDir tmp;
  const auto result = parperf({"run", "--bogus", "-o", (tmp / "run").string(), "--", "/bin/true"});
  EXPECT_EQ(result.exit_code, 2) << describe(result);
  EXPECT_TRUE(has(result.err, "unknown option '--bogus' for 'parperf run'")) << describe(result);
  EXPECT_FALSE(fs::exists(tmp / "run")) << "nothing runs after a usage error";
}

TEST(CommandLineMessages, AMistypedCommandIsAnsweredWithTheClosestOne) {
  const auto result = parperf({"reprot", "d"});
  EXPECT_EQ(result.exit_code, 2) << describe(result);
  EXPECT_TRUE(has(result.err, "unknown command 'reprot'; did you mean 'report'?")) << describe(result);
}

TEST(CommandLineMessages, ADirectoryGivenAsTheProgramIsSaidToBeOne) {
  TempDir tmp;
  fs::create_directory(tmp / "not-a-program");
  const auto result = parperf({"run", "-o", (tmp / "run").string(), "--", (tmp / "not-a-program").string()});
  EXPECT_EQ(result.exit_code, 127) << describe(result);
  EXPECT_TRUE(has(result.err, "cannot run '" + (tmp / "not-a-program").string() + "': it is a directory"))
      << describe(result);
}

TEST(CommandLineMessages, ReportOfTwoRunsPointsToDiff) {
  const auto result = parperf({"report", "first", "second"});
  EXPECT_EQ(result.exit_code, 2) << describe(result);
  EXPECT_TRUE(has(result.err, "to compare two runs, use: parperf diff first second")) << describe(result);
}

TEST(CommandLineMessages, ExportSaysWhatItWrote) {
  TempDir tmp;
  const auto run = parperf({"run", "-q", "--trace", "-o", (tmp / "run").string(), "--", "/bin/true"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const fs::path csv = tmp / "events.csv";
  const auto result = parperf({"export", (tmp / "run").string(), "--csv", csv.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  ASSERT_TRUE(fs::exists(csv));
  EXPECT_TRUE(has(result.out, "parperf: wrote the CSV events " + csv.string())) << describe(result);
}

// The options are checked before the run is read: no run is needed to see their messages.
TEST(CommandLineMessages, WhatIfChangesThatCannotGiveAFinitePredictionAreRefused) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--network", "latency=1e300,bandwidth=1e9"}, "--network latency (seconds): '1e300' is too large"},
      {{"--network", "latency=1e-6,bandwidth=1e-300"},
       "--network bandwidth (bytes per second): '1e-300' is too small"},
      {{"--network", "latency=1e-6,bandwidth=0"}, "--network bandwidth must be more than 0 bytes per second"},
      {{"--network", "latency=1,bandwidth=1e9,latency=2"}, "--network gives the latency twice"},
      {{"--network", "latency=inf,bandwidth=1e9"}, "--network latency (seconds): 'inf' is not a number"},
      {{"--network", "latency=1e-6"}, "--network needs both latency=SECONDS and bandwidth=BYTES_PER_S"},
      {{"--scale", "work=0"}, "--scale's factor F must be more than 0"},
      {{"--scale", "work=nan"}, "--scale's factor F: 'nan' is not a number"},
      {{"--scale", "work"}, "--scale takes NAME=F, not 'work'"},
  };
  for (const auto& [options, message] : cases) {
    std::vector<std::string> arguments = {"whatif", "no-such-run"};
    arguments.insert(arguments.end(), options.begin(), options.end());
    const auto result = parperf(arguments);
    EXPECT_NE(result.exit_code, 0) << options.back() << ": " << describe(result);
    EXPECT_TRUE(has(result.err, message)) << options.back() << ": " << describe(result);
    EXPECT_FALSE(has(result.err, "no-such-run")) << "the options are refused before the run is read";
  }
}

TEST(CommandLineMessages, ATablesDirectoryThatCannotBeMadeIsNamed) {
  TempDir tmp;
  const auto run = parperf({"run", "-q", "-o", (tmp / "run").string(), "--", "/bin/true"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  std::ofstream(tmp / "a-file") << "not a directory";
  const std::string tables = (tmp / "a-file" / "tables").string();
  const auto result = parperf({"report", "--csv", tables, (tmp / "run").string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.err,
            "parperf: " + tables + ": cannot create the directory for the tables: Not a directory\n")
      << describe(result);
}

TEST(CommandLineMessages, NpOnNoRunIsRefusedInOneLineBeforeAnyJobStarts) {
  TempDir tmp;
  const std::string missing = (tmp / "missing").string();
  for (const char* command : {"report", "whatif"}) {
    const auto result = parperf({command, "--np", "2", missing});
    EXPECT_EQ(result.exit_code, 1) << describe(result);
    EXPECT_EQ(result.err, "parperf: " + missing + ": no such directory\n") << describe(result);
  }
  const auto run = parperf({"run", "-q", "-o", (tmp / "run").string(), "--", "/bin/true"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto result = parperf({"whatif", "--np", "2", (tmp / "run").string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.err, "parperf: " + (tmp / "run").string() +
                            " has no event trace to replay: record the run with `parperf run --trace`\n")
      << describe(result);
}

TEST(CommandLineMessages, ControlCharactersOfAProgramNameNeverReachTheTerminal) {
  TempDir tmp;
  const std::string name = "evil\x1b[2J\x07\rname";
  fs::copy_file("/bin/true", tmp / name);
  fs::permissions(tmp / name, fs::perms::owner_all);
  ProcessOptions options;
  options.working_directory = tmp.path();
  const auto result = parperf({"run", "--", "./" + name}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_FALSE(has_control_characters(result.err)) << describe(result);
  for (const auto& entry : fs::directory_iterator(tmp.path())) {
    if (!entry.is_directory()) continue;
    EXPECT_FALSE(has_control_characters(entry.path().filename().string()))
        << "the default run directory carries the name's control characters: " << entry.path();
    EXPECT_TRUE(fs::exists(entry.path() / "profile.0.ppf")) << entry.path();
  }
  const auto missing =
      parperf({"run", "-o", (tmp / "run").string(), "--", "./no\x1b]0;title\x07such"}, options);
  EXPECT_EQ(missing.exit_code, 127) << describe(missing);
  EXPECT_FALSE(has_control_characters(missing.err)) << describe(missing);
  EXPECT_TRUE(has(missing.err, "\\x1b")) << "the escape is shown as such: " << describe(missing);
}

TEST(CommandLineMessages, AMalformedPidSettingIsReported) {
  TempDir tmp;
  ProcessOptions options;
  options.env = {{"LD_PRELOAD", runtime_library().string()},
                 {"PARPERF_PID", "12x"},
                 {"PARPERF_DIR", (tmp / "run").string()}};
  const auto result = run_process({"/bin/true"}, options);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(has(result.err, "PARPERF_PID='12x' is not a process id; this process is not measured"))
      << describe(result);
  EXPECT_FALSE(fs::exists(tmp / "run" / "profile.0.ppf"));
}

}  // namespace
}  // namespace parperf::test
