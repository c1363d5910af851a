#include "support/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace parperf::test {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/parperf-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a directory like " + pattern + ": " + std::strerror(errno));
  }
  path_ = std::filesystem::path(pattern).lexically_normal();
}

TempDir::~TempDir() {
  if (std::getenv("PARPERF_KEEP_TEST_DIRS") != nullptr) {
    std::fprintf(stderr, "test: kept %s\n", path_.c_str());
    return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace parperf::test
