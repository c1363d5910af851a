// A fresh scratch directory per test, removed with everything in it when the test ends (kept when
// PARPERF_KEEP_TEST_DIRS is set, to look at what a failing test left behind).
#pragma once

#include <filesystem>

namespace parperf::test {

class TempDir {
 public:
  TempDir();  // parperf-test-XXXXXX under $TMPDIR, else /tmp
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::filesystem::path& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace parperf::test
