// Loading a run directory: which problems stop the report, how each is named in one line, and
// what --partial keeps. Valid profiles are written with the runtime's own writer.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "support/unblocked_fifo.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::analysis {
namespace {

namespace fs = std::filesystem;

class analysis_run_loader : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parperf-loader-" + std::to_string(::getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write_profile(const std::string& name, std::int64_t rank, std::int64_t world_size) {
    format::Profile p = test::minimal_profile();
    p.process.rank = rank;
    p.process.world_size = world_size;
    test::write_profile_file(dir_ / name, p);
  }
  void write_text(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }

  // The one-line message load_run fails with, or "" when it succeeds.
  std::string load_error(const LoadOptions& options = {}) {
    try {
      load_run(dir_, options);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

testing::AssertionResult starts_with(const std::string& text, const std::string& prefix) {
  if (text.rfind(prefix, 0) == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "message \"" << text << "\" should start with \"" << prefix << "\"";
}

TEST_F(analysis_run_loader, AMissingDirectoryIsNamed) {
  fs::path missing = dir_ / "nothing-here";
  try {
    load_run(missing);
    FAIL() << "loading a directory that does not exist succeeded";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), missing.string() + ": no such directory");
  }
}

TEST_F(analysis_run_loader, AFileInsteadOfADirectoryIsNamed) {
  write_text("file", "x");
  try {
    load_run(dir_ / "file");
    FAIL() << "loading a plain file as a run directory succeeded";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), (dir_ / "file").string() + ": not a directory");
  }
}

TEST_F(analysis_run_loader, ADirectoryWithoutProfilesIsAnErrorEvenWithPartial) {
  write_text("notes.txt", "hello");
  EXPECT_TRUE(starts_with(load_error(), dir_.string() + ": no profile files"));
  EXPECT_TRUE(starts_with(load_error({.partial = true}), dir_.string() + ": no profile files"));
}

TEST_F(analysis_run_loader, AnEmptyProfileIsNamedWithItsProblem) {
  write_text("profile.0.ppf", "");
  std::string message = load_error();
  EXPECT_TRUE(starts_with(message, "profile.0.ppf: "));
  EXPECT_NE(message.find("empty"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
}

TEST_F(analysis_run_loader, AForeignFileIsNamed) {
  write_text("profile.0.ppf", "#!/bin/sh\necho this is not a profile\n");
  std::string message = load_error();
  EXPECT_TRUE(starts_with(message, "profile.0.ppf: "));
  EXPECT_NE(message.find("not a parperf profile"), std::string::npos) << message;
}

TEST_F(analysis_run_loader, ValidProfilesLoadInRankOrderWithRunJson) {
  write_profile("profile.1.ppf", 1, 2);
  write_profile("profile.0.ppf", 0, 2);
  write_text("run.json", R"({"command": ["./app", "-n", "4"]})");
  RunData run = load_run(dir_);
  ASSERT_EQ(run.profiles.size(), 2u);
  EXPECT_EQ(run.profiles[0].process.rank, 0);
  EXPECT_EQ(run.profiles[1].process.rank, 1);
  EXPECT_EQ(run.profile_files[1], "profile.1.ppf");
  EXPECT_EQ(run.world_size, 2);
  ASSERT_TRUE(run.run_info.has_value());
  EXPECT_EQ(run.run_info->command.size(), 3u);
  EXPECT_TRUE(run.warnings.empty());
}

TEST_F(analysis_run_loader, WithoutRunJsonTheProfilesSuffice) {
  write_profile("profile.0.ppf", 0, 1);
  RunData run = load_run(dir_);
  EXPECT_FALSE(run.run_info.has_value());
}

TEST_F(analysis_run_loader, AMissingRankIsAWarningNamingItAndTheRunsSizeNotAnError) {
  // A rank that aborted, crashed or was killed leaves no profile: the others are still worth a report.
  write_profile("profile.0.ppf", 0, 4);
  write_profile("profile.2.ppf", 2, 4);
  write_profile("profile.3.ppf", 3, 4);
  EXPECT_EQ(load_error(), "") << "a missing profile does not stop the load, with or without --partial";
  RunData run = load_run(dir_);
  ASSERT_EQ(run.profiles.size(), 3u);
  EXPECT_EQ(run.missing_ranks, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(run.missing_rank_count, 1);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], "profile.1.ppf: missing (the run has 4 processes)");
}

TEST_F(analysis_run_loader, ManyMissingRanksAreListedAndAFewNamed) {
  write_profile("profile.0.ppf", 0, 6);
  RunData run = load_run(dir_);
  EXPECT_EQ(run.missing_ranks, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(run.missing_rank_count, 5);
  ASSERT_EQ(run.warnings.size(), 3u) << "two named, then one line for the rest";
  EXPECT_EQ(run.warnings[2], "profile.3.ppf and 2 more profiles: missing (the run has 6 processes)");
}

TEST_F(analysis_run_loader, AHugeWorldSizeListsABoundedNumberOfMissingRanks) {
  // A world size a damaged (but consistent) profile could claim must not exhaust memory.
  write_profile("profile.0.ppf", 0, std::int64_t{1} << 40);
  RunData run = load_run(dir_);
  EXPECT_EQ(run.missing_ranks.size(), kMaxListedMissingRanks);
  EXPECT_EQ(run.missing_rank_count, (std::int64_t{1} << 40) - 1);
}

TEST_F(analysis_run_loader, ACorruptProfileIsStillAnErrorAndNotAMissingRank) {
  write_profile("profile.0.ppf", 0, 2);
  write_text("profile.1.ppf", "garbage");
  EXPECT_TRUE(starts_with(load_error(), "profile.1.ppf: "));
  RunData run = load_run(dir_, {.partial = true});
  EXPECT_TRUE(run.missing_ranks.empty()) << "its file exists; the warning says what is wrong with it";
}

TEST_F(analysis_run_loader, TwoFilesClaimingOneRankAreAnError) {
  write_profile("profile.0.ppf", 0, 2);
  write_profile("profile.1.ppf", 0, 2);
  EXPECT_EQ(load_error(), "profile.1.ppf: holds rank 0, which profile.0.ppf also holds");
}

TEST_F(analysis_run_loader, ProfilesMustAgreeOnTheSizeOfTheRun) {
  write_profile("profile.0.ppf", 0, 2);
  write_profile("profile.1.ppf", 1, 3);
  write_profile("profile.2.ppf", 2, 3);
  EXPECT_EQ(load_error(), "profile.1.ppf: says the run has 3 processes, profile.0.ppf says 2");
  RunData run = load_run(dir_, {.partial = true});
  EXPECT_EQ(run.profiles.size(), 1u) << "only the profiles that agree with the first are kept";
  ASSERT_EQ(run.warnings.size(), 2u) << "rank 1 is rejected, not also missing";
  EXPECT_EQ(run.warnings[1], "profile.2.ppf: says the run has 3 processes, profile.0.ppf says 2");
}

// run.json is optional (docs/format.md): when it is damaged the report is made from the profiles,
// with a warning that names the file and what is wrong.
TEST_F(analysis_run_loader, InvalidRunJsonIsAWarningAndTheProfilesAreLoaded) {
  write_profile("profile.0.ppf", 0, 1);
  write_text("run.json", "{\"command\": [");
  RunData run = load_run(dir_);
  EXPECT_EQ(run.profiles.size(), 1u);
  EXPECT_FALSE(run.run_info.has_value());
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_TRUE(starts_with(run.warnings[0], "run.json: invalid JSON: ")) << run.warnings[0];
  EXPECT_NE(run.warnings[0].find("the report is made without it"), std::string::npos) << run.warnings[0];
  write_text("run.json", "[1, 2]");
  run = load_run(dir_);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], "run.json: not a JSON object; the report is made without it");
}

// A run.json that is a device was read to 2.9 GB, one that is a FIFO blocked the report: only a
// regular file of a sane size is read.
TEST_F(analysis_run_loader, RunJsonThatIsNoRegularFileOrTooLargeIsAWarning) {
  write_profile("profile.0.ppf", 0, 1);
  fs::create_symlink("/dev/zero", dir_ / "run.json");
  RunData run = load_run(dir_);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0],
            "run.json: not a regular file (a character device); the report is made without it");
  fs::remove(dir_ / "run.json");
  {
    const test::UnblockedFifo fifo(dir_ / "run.json");
    run = load_run(dir_);
    ASSERT_EQ(run.warnings.size(), 1u);
    EXPECT_EQ(run.warnings[0], "run.json: not a regular file (a FIFO); the report is made without it");
  }
  write_text("run.json", "{}");
  fs::resize_file(dir_ / "run.json", format::kMaxRunInfoBytes + 1);
  run = load_run(dir_);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_TRUE(
      starts_with(run.warnings[0], "run.json: 16777217 bytes, more than the 16777216 a run.json can have"))
      << run.warnings[0];
  EXPECT_EQ(run.profiles.size(), 1u);
}

// A FIFO named like a profile hung `parperf report` forever.
TEST_F(analysis_run_loader, AFifoNamedLikeAProfileIsRefused) {
  write_profile("profile.0.ppf", 0, 2);
  const test::UnblockedFifo fifo(dir_ / "profile.1.ppf");
  EXPECT_EQ(load_error(), "profile.1.ppf: not a regular file (a FIFO)");
  RunData run = load_run(dir_, {.partial = true});
  EXPECT_EQ(run.profiles.size(), 1u);
}

TEST_F(analysis_run_loader, PartialKeepsTheGoodProfilesAndWarnsAboutTheBadOne) {
  write_profile("profile.0.ppf", 0, 3);
  write_text("profile.1.ppf", "garbage");
  write_profile("profile.2.ppf", 2, 3);
  write_text("run.json", "not json");
  EXPECT_TRUE(starts_with(load_error(), "profile.1.ppf: "))
      << "without --partial the bad file stops the load";
  RunData run = load_run(dir_, {.partial = true});
  ASSERT_EQ(run.profiles.size(), 2u);
  EXPECT_EQ(run.profiles[1].process.rank, 2);
  ASSERT_EQ(run.warnings.size(), 2u) << "the bad profile and run.json; rank 1 is not reported missing twice";
  EXPECT_TRUE(starts_with(run.warnings[0], "profile.1.ppf: "));
  EXPECT_TRUE(starts_with(run.warnings[1], "run.json: "));
  EXPECT_FALSE(run.run_info.has_value());
}

// A profile whose checksums agree but whose values cannot be (a part larger than its whole) would
// give negative times and efficiencies far outside 0..1: it is refused like a damaged file, naming
// the record, and --partial leaves it out.
TEST_F(analysis_run_loader, ImpossibleValuesAreRefusedNamingTheRecord) {
  write_profile("profile.0.ppf", 0, 2);
  format::Profile p = test::minimal_profile();
  p.process.rank = 1;
  p.process.world_size = 2;
  p.threads[0].end_ns = 1'000'000'000;
  p.threads[0].nodes[0].sum_ns = p.threads[0].nodes[0].max_ns = 1'000'000'000;
  format::Node child;
  child.parent = 0;
  child.count = 1;
  child.sum_ns = child.min_ns = child.max_ns = 1'000'000'000 + (std::uint64_t{1} << 31);
  p.threads[0].nodes.push_back(child);
  test::write_profile_file(dir_ / "profile.1.ppf", p);
  EXPECT_EQ(
      load_error(),
      "profile.1.ppf: impossible values: thread 0, node 1 at site 0 (\"program\"): its time 3.147483648 s "
      "exceeds its parent's time 1 s");
  RunData run = load_run(dir_, {.partial = true});
  ASSERT_EQ(run.profiles.size(), 1u);
  EXPECT_EQ(run.profiles[0].process.rank, 0);
  ASSERT_EQ(run.warnings.size(), 1u) << "rank 1 is rejected, not also missing";
  EXPECT_TRUE(starts_with(run.warnings[0], "profile.1.ppf: impossible values: "));
}

TEST_F(analysis_run_loader, PartialWarnsAboutAMissingRankAsWithoutIt) {
  write_profile("profile.1.ppf", 1, 2);
  RunData run = load_run(dir_, {.partial = true});
  ASSERT_EQ(run.profiles.size(), 1u);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], "profile.0.ppf: missing (the run has 2 processes)");
  EXPECT_EQ(run.missing_ranks, (std::vector<std::int64_t>{0}));
}

TEST_F(analysis_run_loader, PartialWithNothingUsableIsStillAnError) {
  write_text("profile.0.ppf", "");
  std::string message = load_error({.partial = true});
  EXPECT_TRUE(starts_with(message, dir_.string() + ": no usable profile left: profile.0.ppf: ")) << message;
}

TEST_F(analysis_run_loader, ARenamedProfileIsUsedForTheRankItHolds) {
  write_profile("profile.7.ppf", 0, 1);
  RunData run = load_run(dir_);
  ASSERT_EQ(run.profiles.size(), 1u);
  ASSERT_EQ(run.warnings.size(), 1u);
  EXPECT_EQ(run.warnings[0], "profile.7.ppf: holds the profile of rank 0");
}

// The issue's case: a trace.<rank>.ppt that is a FIFO, a directory or a dangling link was ignored
// without a word, and that rank's wait states just disappeared from the report. The run's warnings
// (the report's text and JSON) say which trace was left out and why.
TEST_F(analysis_run_loader, ATraceThatIsNoRegularFileIsNamedAsLeftOut) {
  write_profile("profile.0.ppf", 0, 4);
  write_profile("profile.1.ppf", 1, 4);
  write_profile("profile.2.ppf", 2, 4);
  write_profile("profile.3.ppf", 3, 4);
  write_text("trace.0.ppt", "a regular file: the trace reader judges it");
  const test::UnblockedFifo fifo(dir_ / "trace.1.ppt");
  fs::create_directory(dir_ / "trace.2.ppt");
  fs::create_symlink(dir_ / "gone", dir_ / "trace.3.ppt");
  const RunData run = load_run(dir_);
  const std::vector<std::string> expected = {
      "trace.1.ppt: left out: a FIFO, not a regular file (its rank's event trace is not read)",
      "trace.2.ppt: left out: a directory, not a regular file (its rank's event trace is not read)",
      "trace.3.ppt: left out: a symbolic link to nothing (its rank's event trace is not read)"};
  EXPECT_EQ(run.warnings, expected);
}

}  // namespace
}  // namespace parperf::analysis
