// The files the commands write beside a run (new_file.hpp): a symbolic link planted at the path,
// say to a file only root may write, is replaced, and what it names is never written (the issue's
// `parperf locality -o` overwrote a root-owned file through locality.json).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "format/locality_file.hpp"
#include "format/memory_trace_writer.hpp"
#include "format/new_file.hpp"
#include "format/run_directory.hpp"

namespace parperf::format {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class PlantedLink : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ =
        fs::temp_directory_path() / ("parperf-new-file-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "victim") << "root's file";
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  // `name` in the run directory, a link to the victim.
  fs::path planted(const std::string& name) {
    fs::create_symlink(dir_ / "victim", dir_ / name);
    return dir_ / name;
  }
  void expect_victim_untouched(const fs::path& path) {
    EXPECT_EQ(contents(dir_ / "victim"), "root's file") << "written through the link " << path;
    EXPECT_FALSE(fs::is_symlink(path)) << path << " is still the planted link";
    EXPECT_TRUE(fs::is_regular_file(path));
  }

  fs::path dir_;
};

TEST_F(PlantedLink, ANewFileReplacesTheLink) {
  const fs::path path = planted("picture.svg");
  write_new_file(path, "<svg/>");
  expect_victim_untouched(path);
  EXPECT_EQ(contents(path), "<svg/>");
}

TEST_F(PlantedLink, LocalityJsonReplacesTheLink) {
  const fs::path path = planted(kLocalityFileName);
  write_locality_file(path, LocalityResult{});
  expect_victim_untouched(path);
}

TEST_F(PlantedLink, MemoryTraceReplacesTheLink) {
  const fs::path path = planted("memory.ppm");
  {
    MemoryTraceWriter writer(path);
    writer.finish();
  }
  expect_victim_untouched(path);
}

}  // namespace
}  // namespace parperf::format
