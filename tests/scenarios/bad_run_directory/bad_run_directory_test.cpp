// Scenario: a real run of two processes (rank 0 computes 20 ms, rank 1 40 ms in "work"), then its
// run directory damaged in each way a user meets: a truncated, bit-flipped, empty, foreign or
// missing profile, a broken run.json, a directory that does not exist.
//
// Expected: `parperf report` prints one line on stderr naming the file and the problem, nothing on
// stdout, and exits 1; with --partial it reports the intact rank and warns about the other.
#include <gtest/gtest.h>

#include <fstream>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

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
};

TEST_F(BadRunDirectory, TheIntactRunIsReportedPerRank) {
  const auto json = report_json(run_);
  EXPECT_EQ(json["run"]["processes"], 2);
  EXPECT_EQ(json["run"]["unit"], "rank") << "several processes: each rank is a processor";
  const auto* work = find_interval(json, "user", "work");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ((*work)["processors"], 2);
  EXPECT_GE(number(*work, "execution_time"), 0.040) << "rank 1 computes 40 ms";
  EXPECT_LE(number(*work, "execution_time"), 0.055);
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

TEST_F(BadRunDirectory, ABrokenRunJsonIsNamed) {
  rewrite(run_ / "run.json", "{\"parperf_run_format\": 1, \"command\": [");
  expect_error("run.json", "");
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
  EXPECT_GE(number(*work, "execution_time"), 0.020) << "rank 0's 20 ms";
  EXPECT_LE(number(*work, "execution_time"), 0.035);
}

}  // namespace
}  // namespace parperf::test
