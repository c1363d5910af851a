// Writes the seed corpus of profile_reader_fuzz: valid profiles for libFuzzer to mutate.
// Usage: profile_fuzz_seeds DIR
#include <cstdio>
#include <exception>
#include <filesystem>

#include "unit/format_test_profiles.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    parperf::test::write_profile_file(dir / "rich.ppf", parperf::test::rich_sample_profile());
    parperf::test::write_profile_file(dir / "minimal.ppf", parperf::test::minimal_profile());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profile_fuzz_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
