// Scenario: a real run of two processes (rank 0 works 20 ms, rank 1 40 ms in "work"), then its
// run directory damaged in each way a user meets: a truncated, bit-flipped, empty, foreign or
// missing profile, an impossible value under resealed checksums, a broken run.json (only a
// warning), a directory that does not exist.
//
// Expected: `parperf report` prints one line on stderr naming the file and the problem, nothing on
// stdout, and exits 1; with --partial it reports the intact rank and warns about the other.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "format/profile_reader.hpp"
#include "support/artifacts.hpp"
#include "support/clock_tolerance.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/temp_dir.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::test {
namespace fs = std::filesystem;
namespace {

class BadRunDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* rank : {"0", "1"}) {
      ProcessOptions options;
      options.env = {{"PARPERF_DIR", run_.string()},
                     {"PARPERF_RANK", rank},
                     {"PARPERF_WORLD_SIZE", "2"},
                     {"PARPERF_QUIET", "1"}};
      const auto result = run_process({PARPERF_PROGRAM_BAD_RUN_DIRECTORY_PROGRAM}, options);
      ASSERT_EQ(result.exit_code, 0) << describe(result);
      late_ = std::max(late_, sleep_overshoot(result));
    }
    ASSERT_TRUE(fs::exists(run_ / "profile.0.ppf") && fs::exists(run_ / "profile.1.ppf"));
  }

  ProcessResult report(const std::vector<std::string>& options = {}) {
    std::vector<std::string> argv = {parperf_command().string(), "report"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(run_.string());
    return run_process(argv);
  }

  // Asserts the one-line error: exit 1, nothing on stdout, stderr naming `file` and `problem`.
  void expect_error(const std::string& file, const std::string& problem) {
    const auto result = report();
    EXPECT_EQ(result.exit_code, 1) << describe(result);
    EXPECT_TRUE(result.out.empty()) << "no report may be printed from damaged data\n" << result.out;
    const auto lines = lines_of(result.err);
    ASSERT_EQ(lines.size(), 1u) << "exactly one line of error\n" << result.err;
    EXPECT_EQ(lines[0].rfind("parperf: ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(file), std::string::npos) << "the line must name " << file << ": " << lines[0];
    EXPECT_NE(lines[0].find(problem), std::string::npos)
        << "the line must say '" << problem << "': " << lines[0];
  }

  void rewrite(const fs::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  std::string contents(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  TempDir tmp_;
  fs::path run_ = tmp_ / "run";
  double late_ = 0;  // how late the ranks' sleeps ended (the larger), support/sleep_overshoot.hpp
};

TEST_F(BadRunDirectory, TheIntactRunIsReportedPerRank) {
  const auto json = report_json(run_);
  EXPECT_EQ(json["run"]["processes"], 2);
  EXPECT_EQ(json["run"]["unit"], "rank") << "several processes: each rank is a processor";
  const auto* work = find_interval(json, "user", "work");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ((*work)["processors"], 2);
  EXPECT_GE(number(*work, "execution_time"), reported_at_least(0.040)) << "rank 1 works 40 ms";
  EXPECT_LE(number(*work, "execution_time"), 0.055 + late_) << late_ << " s of late wake-ups";
  EXPECT_NEAR(number(*work, "idle_time"),
              number(*work, "execution_time") - number((*work)["per_processor"][0], "execution_time"), 1e-9)
      << "rank 0 idles for the difference";
}

TEST_F(BadRunDirectory, ATruncatedProfileIsNamed) {
  const auto bytes = contents(run_ / "profile.1.ppf");
  rewrite(run_ / "profile.1.ppf", bytes.substr(0, bytes.size() / 2));
  expect_error("profile.1.ppf", "truncated");
}

TEST_F(BadRunDirectory, AFlippedBitIsCaughtByTheChecksum) {
  auto bytes = contents(run_ / "profile.1.ppf");
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);
  rewrite(run_ / "profile.1.ppf", bytes);
  expect_error("profile.1.ppf", "checksum mismatch");
}

TEST_F(BadRunDirectory, AnEmptyProfileIsNamed) {
  rewrite(run_ / "profile.1.ppf", "");
  expect_error("profile.1.ppf", "empty");
}

TEST_F(BadRunDirectory, AForeignFileIsNamed) {
  rewrite(run_ / "profile.1.ppf", "{\"this\": \"is JSON, not a profile\"}\n");
  expect_error("profile.1.ppf", "not a parperf profile");
}

// A rank that was killed leaves no profile while the others do: the report covers the others and
// says, prominently, which rank is missing (not an error: the rest is worth reading).
TEST_F(BadRunDirectory, AMissingProfileIsNamedAndTheOthersReported) {
  fs::remove(run_ / "profile.1.ppf");
  const auto text = report({});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("profiles missing for ranks 1 (of 2)"), std::string::npos) << text.out;
  const auto result = report({"--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["run"]["missing_ranks"], nlohmann::json::array({1}));
  EXPECT_EQ(json["run"]["processes"], 1);
  ASSERT_FALSE(json["run"]["warnings"].empty());
  EXPECT_NE(json["run"]["warnings"][0].get<std::string>().find("profile.1.ppf: missing"), std::string::npos)
      << json["run"]["warnings"].dump();
}

// run.json is optional: a damaged one is named in a warning, and the profiles are reported.
TEST_F(BadRunDirectory, ABrokenRunJsonIsAWarningAndTheProfilesAreReported) {
  rewrite(run_ / "run.json", "{\"parperf_run_format\": 1, \"command\": [");
  const auto text = report({});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("warning: run.json: invalid JSON"), std::string::npos) << text.out;
  const auto json = report_json(run_);
  EXPECT_EQ(json["run"]["processes"], 2) << "both profiles are reported";
}

// Checksums resealed over a value that cannot be: rank 1's "work" 2^31 ns longer than its whole
// program. The characteristics would come out negative; the report refuses the file, naming the
// record, and --partial reports rank 0 alone.
TEST_F(BadRunDirectory, AnImpossibleValueIsNamedWithItsRecord) {
  format::Profile profile = format::read_profile_file(run_ / "profile.1.ppf");
  format::Node* work = nullptr;
  for (format::Node& node : profile.threads.at(0).nodes) {
    const auto site = std::find_if(profile.sites.begin(), profile.sites.end(),
                                   [&](const format::Site& s) { return s.id == node.site; });
    if (site != profile.sites.end() && site->name == "work") work = &node;
  }
  ASSERT_NE(work, nullptr) << "rank 1's profile has no \"work\" interval";
  work->sum_ns = profile.threads[0].nodes[0].sum_ns + (std::uint64_t{1} << 31);
  work->max_ns = work->sum_ns;
  test::write_profile_file(run_ / "profile.1.ppf", profile);
  expect_error("profile.1.ppf", "impossible values: thread 0, node ");
  const auto text = report({});
  EXPECT_NE(text.err.find("(\"work\"): its time "), std::string::npos) << text.err;
  EXPECT_NE(text.err.find(" exceeds its parent's time "), std::string::npos) << text.err;
  const auto partial = report({"--partial", "--json"});
  ASSERT_EQ(partial.exit_code, 0) << describe(partial);
  EXPECT_EQ(nlohmann::json::parse(partial.out)["run"]["processes"], 1);
}

TEST_F(BadRunDirectory, AMissingDirectoryIsNamed) {
  run_ = tmp_ / "no-such-run";
  expect_error("no-such-run", "");
}

TEST_F(BadRunDirectory, PartialReportsTheIntactRankAndWarns) {
  const auto bytes = contents(run_ / "profile.1.ppf");
  rewrite(run_ / "profile.1.ppf", bytes.substr(0, bytes.size() - 3));
  const auto result = report({"--partial", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["run"]["processes"], 1);
  ASSERT_FALSE(json["run"]["warnings"].empty());
  EXPECT_NE(json["run"]["warnings"][0].get<std::string>().find("profile.1.ppf"), std::string::npos)
      << json["run"]["warnings"].dump();
  const auto* work = find_interval(json, "user", "work");
  ASSERT_NE(work, nullptr);
  EXPECT_GE(number(*work, "execution_time"), reported_at_least(0.020)) << "rank 0's 20 ms";
  EXPECT_LE(number(*work, "execution_time"), 0.035 + late_) << late_ << " s of late wake-ups";
}

}  // namespace
}  // namespace parperf::test
