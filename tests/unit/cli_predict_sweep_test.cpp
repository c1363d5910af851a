// `parperf predict SWEEP`: a run of the sweep whose profile is not a regular file (a FIFO, a dangling
// link) was left out of the prediction without a word. The study's warnings, which the text and the
// JSON print, name it and say why.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "cli/predict_options.hpp"
#include "support/temp_dir.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::cli {
namespace {

namespace fs = std::filesystem;

void write_run(const fs::path& directory, std::int64_t processes) {
  fs::create_directories(directory);
  for (std::int64_t rank = 0; rank < processes; ++rank) {
    format::Profile profile = test::minimal_profile();
    profile.process.rank = rank;
    profile.process.world_size = processes;
    test::write_profile_file(directory / ("profile." + std::to_string(rank) + ".ppf"), profile);
  }
}

TEST(PredictSweep, ARunWhoseProfilesAreNoRegularFilesIsNamedAsLeftOut) {
  const test::TempDir tmp;
  const fs::path sweep = tmp / "sweep";
  write_run(sweep / "p1", 1);
  write_run(sweep / "p2", 2);
  fs::create_directories(sweep / "p4");
  ASSERT_EQ(::mkfifo((sweep / "p4" / "profile.0.ppf").c_str(), 0600), 0);
  fs::create_directories(sweep / "p8");
  fs::create_symlink(sweep / "gone", sweep / "p8" / "profile.0.ppf");
  PredictOptions options;
  options.directories = {sweep.string()};
  const auto study = predict_scaling(options);
  const auto said = [&](const std::string& warning) {
    return std::find(study.warnings.begin(), study.warnings.end(), warning) != study.warnings.end();
  };
  EXPECT_TRUE(
      said((sweep / "p4").string() + ": left out of the sweep: profile.0.ppf is a FIFO, not a regular file"))
      << ::testing::PrintToString(study.warnings);
  EXPECT_TRUE(
      said((sweep / "p8").string() + ": left out of the sweep: profile.0.ppf is a symbolic link to nothing"))
      << ::testing::PrintToString(study.warnings);
}

}  // namespace
}  // namespace parperf::cli
