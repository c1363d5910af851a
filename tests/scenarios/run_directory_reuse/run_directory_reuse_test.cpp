// Scenario: a run directory named with -o that holds a run already. Writing a second run into it
// lost the first (`-o same -- ./a`, then `-o same -- /bin/true`) or mixed them: a 1-process run after
// a 4-rank traced one replaced profile.0.ppf and run.json but left profile.1-3.ppf and the traces,
// and the report failed; the only warning came after the program had run.
//
// Expected:
// - the second run is refused before its program starts (exit 125, the directory and --force named),
//   and the first run is left as it was;
// - with --force the earlier run's files (profiles, traces, run.json, locality results) are removed
//   before the program starts, and nothing else the user keeps there;
// - the ranks of one MPI job (`mpirun -np 2 parperf run -o DIR`) share DIR: a rank that finds its
//   sibling's files goes on, a rank of another job is refused, and --force removes the earlier job's
//   run once, not a sibling's files. The ranks are simulated by Open MPI's variables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

namespace fs = std::filesystem;

ProcessResult parperf_run(const fs::path& directory, const std::vector<std::string>& flags,
                          const std::vector<std::string>& command, const ProcessOptions& options = {}) {
  std::vector<std::string> argv = {parperf_command().string(), "run", "-q", "-o", directory.string()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.emplace_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  return run_process(argv, options);
}

// One rank of an Open MPI job, as mpirun describes it to the processes it starts.
ProcessOptions rank_of_job(const std::string& job, int rank) {
  ProcessOptions options;
  options.env = {{"OMPI_MCA_ess_base_jobid", job},
                 {"OMPI_COMM_WORLD_RANK", std::to_string(rank)},
                 {"OMPI_COMM_WORLD_SIZE", "2"}};
  return options;
}

TEST(RunDirectoryReuse, ASecondRunIsRefusedBeforeItsProgramStarts) {
  TempDir tmp;
  const fs::path run = tmp / "same";
  const fs::path touched = tmp / "the second program ran";
  ASSERT_EQ(parperf_run(run, {}, {"/bin/true"}).exit_code, 0);
  const auto second = parperf_run(run, {}, {"/bin/touch", touched.string()});
  EXPECT_EQ(second.exit_code, 125) << describe(second);
  EXPECT_NE(second.err.find("refusing to write into " + run.string() + ": it holds an earlier run"),
            std::string::npos)
      << describe(second);
  EXPECT_NE(second.err.find("--force"), std::string::npos) << "the message must say how to replace the run";
  EXPECT_FALSE(fs::exists(touched)) << "the program must not start";
  EXPECT_EQ(read_json_file(run / "run.json")["command"], nlohmann::json::array({"/bin/true"}))
      << "the first run must be left as it was";
}

// A -o that is the user's own symbolic link to a run directory is that directory.
TEST(RunDirectoryReuse, ARunReachedThroughTheUsersOwnLinkIsRefusedToo) {
  TempDir tmp;
  ASSERT_EQ(parperf_run(tmp / "real", {}, {"/bin/true"}).exit_code, 0);
  fs::create_directory_symlink(tmp / "real", tmp / "link");
  const auto second = parperf_run(tmp / "link", {}, {"/bin/true"});
  EXPECT_EQ(second.exit_code, 125) << describe(second);
  const auto replaced = parperf_run(tmp / "link", {"--force"}, {"/bin/sh", "-c", "exit 0"});
  EXPECT_EQ(replaced.exit_code, 0) << describe(replaced);
  EXPECT_EQ(read_json_file(tmp / "real" / "run.json")["command"],
            nlohmann::json::array({"/bin/sh", "-c", "exit 0"}))
      << "the run is written through the user's link, into the directory it names";
}

TEST(RunDirectoryReuse, ForceReplacesTheEarlierRunWhole) {
  TempDir tmp;
  const fs::path run = tmp / "same";
  ASSERT_EQ(parperf_run(run, {}, {"/bin/true"}).exit_code, 0);
  // What a 4-rank traced run with locality results leaves beside rank 0's files, and a user's note.
  fs::copy_file(run / "profile.0.ppf", run / "profile.3.ppf");
  std::ofstream(run / "trace.3.ppt") << "an earlier trace";
  fs::create_directory(run / "locality-rank-3");
  std::ofstream(run / "locality-rank-3" / "locality.json") << "{}";
  std::ofstream(run / "notes.txt") << "the user's own";
  const auto replaced = parperf_run(run, {"--force"}, {"/bin/sh", "-c", "exit 0"});
  ASSERT_EQ(replaced.exit_code, 0) << describe(replaced);
  for (const char* earlier : {"profile.3.ppf", "trace.3.ppt", "locality-rank-3"})
    EXPECT_FALSE(fs::exists(run / earlier)) << earlier << " of the earlier run must be removed";
  EXPECT_TRUE(fs::exists(run / "notes.txt")) << "--force removes the earlier run's files only";
  const auto info = read_json_file(run / "run.json");
  EXPECT_EQ(info["command"], nlohmann::json::array({"/bin/sh", "-c", "exit 0"}));
  EXPECT_EQ(info["profiles"], nlohmann::json::array({"profile.0.ppf"}));
}

TEST(RunDirectoryReuse, TheRanksOfOneJobShareTheDirectory) {
  TempDir tmp;
  const fs::path run = tmp / "job";
  // Rank 1 of job A starts first and writes; rank 0 then finds its sibling's profile there.
  ASSERT_EQ(parperf_run(run, {}, {"/bin/true"}, rank_of_job("A", 1)).exit_code, 0);
  ASSERT_TRUE(fs::exists(run / "profile.1.ppf"));
  const auto sibling = parperf_run(run, {}, {"/bin/true"}, rank_of_job("A", 0));
  EXPECT_EQ(sibling.exit_code, 0) << "a rank of the same job must not be refused: " << describe(sibling);
  // A rank of another job is refused, unless it replaces job A's run: once, by its first rank.
  const auto other = parperf_run(run, {}, {"/bin/true"}, rank_of_job("B", 0));
  EXPECT_EQ(other.exit_code, 125) << "job B must not mix into job A's run: " << describe(other);
  ASSERT_EQ(parperf_run(run, {"--force"}, {"/bin/true"}, rank_of_job("B", 0)).exit_code, 0);
  EXPECT_FALSE(fs::exists(run / "profile.1.ppf")) << "job A's rank 1 must be removed by --force";
  ASSERT_EQ(parperf_run(run, {"--force"}, {"/bin/true"}, rank_of_job("B", 1)).exit_code, 0);
  EXPECT_TRUE(fs::exists(run / "profile.0.ppf")) << "job B's rank 1 removed its sibling's profile";
  EXPECT_TRUE(fs::exists(run / "profile.1.ppf"));
}

}  // namespace
}  // namespace parperf::test
