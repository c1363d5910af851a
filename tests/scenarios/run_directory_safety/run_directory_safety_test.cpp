// Scenario: another user of a shared directory (/tmp, a project directory) knows the names parperf
// will create — the default run directory is the program and the second it starts, run.json's
// temporary file and `parperf cc --only`'s allowlist carry parperf's pid — and plants a symbolic
// link there, or a directory of its own. A run by root would then write wherever that points.
//
// Expected: parperf never writes through what was planted (the target of each link keeps its
// content), makes a fresh default directory beside it, and refuses, before the program starts, a
// run directory that belongs to another user. The pid is known in advance the way an attacker
// could know it: a shell plants the link under its own pid, then execs parperf, which keeps it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/run_directory.hpp"
#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSecret = "the victim's content\n";

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A file another user must not be able to make parperf overwrite.
fs::path make_victim(const TempDir& tmp) {
  const fs::path victim = tmp / "victim";
  std::ofstream(victim) << kSecret;
  return victim;
}

// The default run directory names `parperf run` could choose for `program` from now on.
std::vector<std::string> default_names(const std::string& program, int seconds) {
  std::vector<std::string> names;
  const std::time_t now = std::time(nullptr);
  for (int s = -1; s <= seconds; ++s) {
    char name[512];
    format::default_run_directory_name(name, sizeof name, program.c_str(), now + s);
    names.emplace_back(name);
  }
  return names;
}

TEST(RunDirectorySafety, TheDefaultRunDirectoryIsNeverOneThatExists) {
  TempDir tmp;
  const fs::path work = tmp / "work";
  fs::create_directories(work / "elsewhere");
  const std::vector<std::string> planted = default_names("true", 10);
  for (const auto& name : planted) fs::create_directory_symlink(work / "elsewhere", work / name);
  ProcessOptions options;
  options.working_directory = work;
  const auto run = run_process({parperf_command().string(), "run", "--", "/bin/true"}, options);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(fs::is_empty(work / "elsewhere")) << "the run wrote through a planted link";
  std::vector<fs::path> made;
  for (const auto& entry : fs::directory_iterator(work))
    if (!entry.is_symlink() && entry.path().filename() != "elsewhere") made.push_back(entry.path());
  ASSERT_EQ(made.size(), 1u) << describe(run);
  EXPECT_TRUE(fs::exists(made[0] / "profile.0.ppf")) << made[0];
  EXPECT_NE(run.err.find(made[0].filename().string()), std::string::npos)
      << "the hint names the directory made\n"
      << run.err;
}

// The same for `parperf locality`, whose default directory is named after its input.
TEST(RunDirectorySafety, TheDefaultLocalityDirectoryIsNeverOneThatExists) {
  TempDir tmp;
  const fs::path work = tmp / "work";
  fs::create_directories(work / "elsewhere");
  std::ofstream(work / "accesses.txt") << "L 0x1000 8\nL 0x1008 8\n";
  for (const auto& name : default_names("accesses.txt", 10))
    fs::create_directory_symlink(work / "elsewhere", work / name);
  ProcessOptions options;
  options.working_directory = work;
  const auto run =
      run_process({parperf_command().string(), "locality", "-q", "--text", "accesses.txt"}, options);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_TRUE(fs::is_empty(work / "elsewhere")) << "the results went through a planted link";
}

TEST(RunDirectorySafety, ARunDirectoryOfAnotherUserIsRefusedBeforeTheProgramStarts) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a directory to another user";
  TempDir tmp;
  const fs::path marker = tmp / "the program ran";
  for (const bool as_link : {false, true}) {
    const fs::path directory = tmp / (as_link ? "link" : "theirs");
    if (as_link) {
      fs::create_directory(tmp / "mine");
      fs::create_directory_symlink(tmp / "mine", directory);
    } else {
      fs::create_directory(directory);
    }
    ASSERT_EQ(lchown(directory.c_str(), 65534, 65534), 0);
    const auto run = run_process(
        {parperf_command().string(), "run", "-o", directory.string(), "--", "/bin/touch", marker.string()});
    EXPECT_EQ(run.exit_code, 125) << describe(run);
    EXPECT_NE(run.err.find("refusing to write into " + directory.string() + ": it is a " +
                           (as_link ? "symbolic link" : "directory") + " that belongs to user 65534"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(fs::exists(marker)) << "the program was started";
    EXPECT_FALSE(fs::exists(directory / "profile.0.ppf"));
  }
}

TEST(RunDirectorySafety, RunJsonIsNeverWrittenThroughALinkAtItsTemporaryName) {
  TempDir tmp;
  const fs::path victim = make_victim(tmp);
  const fs::path run_directory = tmp / "run";
  fs::create_directory(run_directory);
  const auto run = run_process(
      {"/bin/sh", "-c", "ln -s \"$1\" \"$2/.run.json.$$.tmp\" && exec \"$0\" run -q -o \"$2\" -- /bin/true",
       parperf_command().string(), victim.string(), run_directory.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(read_file(victim), kSecret) << "run.json was written through the link";
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(run_directory / "run.json")));
  EXPECT_NE(read_file(run_directory / "run.json").find("\"command\""), std::string::npos);
}

// Whoever owns the run directory's parent can rename the directory while the program runs and put a
// link to any directory at its name: the profile and run.json must still go into the directory the
// run began in, never through the link. The program does it itself here, as the attacker would.
TEST(RunDirectorySafety, ARunDirectorySwappedForALinkDuringTheRunIsNotFollowed) {
  TempDir tmp;
  const fs::path run_directory = tmp / "run";
  const fs::path elsewhere = tmp / "elsewhere";
  fs::create_directory(elsewhere);
  const auto run = run_process({parperf_command().string(), "run", "-q", "-o", run_directory.string(), "--",
                                "/bin/sh", "-c", "mv \"$1\" \"$1.moved\" && ln -s \"$2\" \"$1\"", "sh",
                                run_directory.string(), elsewhere.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  ASSERT_TRUE(fs::is_symlink(run_directory)) << "the program did not swap the directory";
  EXPECT_TRUE(fs::is_empty(elsewhere)) << "the run wrote through the link put in its directory's place";
  EXPECT_TRUE(fs::exists(tmp / "run.moved" / "profile.0.ppf")) << "the profile belongs where the run began";
  EXPECT_TRUE(fs::exists(tmp / "run.moved" / "run.json")) << "run.json belongs where the run began";
}

TEST(RunDirectorySafety, TheAllowlistIsNeverWrittenThroughALinkAtAPredictableName) {
  TempDir tmp;
  const fs::path victim = make_victim(tmp);
  ProcessOptions options;
  options.env = {{"TMPDIR", tmp.path().string()}, {"PARPERF_CC", "/bin/true"}};
  const auto run =
      run_process({"/bin/sh", "-c",
                   "ln -s \"$1\" \"$TMPDIR/parperf-allowlist-$$.txt\" && exec \"$0\" cc --only kernel "
                   "-c x.c",
                   parperf_command().string(), victim.string()},
                  options);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(read_file(victim), kSecret) << "the allowlist was written through the link";
}

}  // namespace
}  // namespace parperf::test
