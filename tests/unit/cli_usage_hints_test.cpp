// The pure parts of two `parperf run` decisions: which command a mistyped one meant, and which files
// of a run directory belong to a run (refused, or removed by --force; the rest is the user's).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run_directory_reuse.hpp"
#include "cli/usage_hints.hpp"

namespace parperf::cli {
namespace {

const std::vector<std::string> kCommands = {"run",     "report", "trace",   "export",
                                            "predict", "diff",   "locality"};

TEST(UsageHints, AMistypedCommandMeansTheClosestOne) {
  EXPECT_EQ(closest_name("reprot", kCommands), "report");
  EXPECT_EQ(closest_name("expotr", kCommands), "export");
  EXPECT_EQ(closest_name("rn", kCommands), "run");
  EXPECT_EQ(closest_name("loc", kCommands), "locality") << "a prefix of one command";
}

TEST(UsageHints, AWordLikeNoCommandMeansNone) {
  EXPECT_FALSE(closest_name("compile", kCommands).has_value());
  EXPECT_FALSE(closest_name("xyz", kCommands).has_value());
}

TEST(RunFiles, TheFilesOfARunAreKnownByName) {
  for (const char* name : {"run.json", "profile.0.ppf", "profile.12.ppf", "profile.3.ppf.final.partial",
                           "trace.0.ppt", "locality.json", "locality-rank-3"})
    EXPECT_TRUE(is_run_file(name)) << name;
  for (const char* name : {"notes.txt", "profile.pdf", ".parperf-job", ".run.json.123.tmp", "trace.txt"})
    EXPECT_FALSE(is_run_file(name)) << name;
}

}  // namespace
}  // namespace parperf::cli
