// Where the profile lands (this executable runs with PARPERF_DIR=relative-run-%p, see runtime.cmake).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "parperf/parperf.hpp"

namespace parperf::testing {
namespace {

TEST(RuntimeDirectory, ARelativeDirectoryIsAnchoredWhereTheProgramStarted) {
  const std::filesystem::path started_in = std::filesystem::current_path();
  const std::filesystem::path expected =
      started_in / ("relative-run-" + std::to_string(getpid())) / "profile.0.ppf";
  std::filesystem::remove(expected);
  { PARPERF_SCOPE("dir_work"); }
  ASSERT_EQ(chdir("/"), 0);  // the program moves before the profile is written
  parperf_flush();
  ASSERT_EQ(chdir(started_in.c_str()), 0);
  EXPECT_TRUE(std::filesystem::exists(expected)) << "expected the profile at " << expected;
  EXPECT_FALSE(std::filesystem::exists("/relative-run-" + std::to_string(getpid())));
  std::filesystem::remove_all(expected.parent_path());
}

}  // namespace
}  // namespace parperf::testing
