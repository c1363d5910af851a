// Shared by the memory trace tests: a scratch file name and a visitor that keeps what it is given.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "format/memory_trace_reader.hpp"

namespace parperf::test {

// A file name under GoogleTest's temporary directory, unique to the running test; removed with it.
class ScratchFile {
 public:
  // The process id keeps copies of a test binary run at once (several builds) apart.
  explicit ScratchFile(const std::string& extension = ".ppm") {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            (std::string(info->test_suite_name()) + "." + info->name() + "." + std::to_string(getpid()) +
             extension);
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct CollectedTrace : format::MemoryTraceVisitor {
  void process(const format::MemoryTraceProcess& p) override {
    processes.push_back(p);
    order.push_back('P');
  }
  void modules(std::span<const format::MemoryModule> m) override {
    all_modules.insert(all_modules.end(), m.begin(), m.end());
    order.push_back('M');
  }
  void sampling(const format::MemoryTraceSampling& s) override {
    samplings.push_back(s);
    order.push_back('S');
  }
  void bursts(const format::MemoryTraceBursts& b) override {
    burst_sections.push_back(b);
    order.push_back('B');
  }
  void accesses(std::span<const format::MemoryAccessRecord> batch) override {
    accesses_seen.insert(accesses_seen.end(), batch.begin(), batch.end());
    ++batches;
    order.push_back('A');
  }

  std::vector<format::MemoryTraceProcess> processes;
  std::vector<format::MemoryTraceSampling> samplings;
  std::vector<format::MemoryTraceBursts> burst_sections;
  std::vector<format::MemoryModule> all_modules;
  std::vector<format::MemoryAccessRecord> accesses_seen;
  int batches = 0;
  std::string order;  // P, M, S, B, A per callback, in file order
};

}  // namespace parperf::test
