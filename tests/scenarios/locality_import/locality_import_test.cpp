// Scenario: valgrind's lackey traces a program that fills and sums an array of 1000 ints; the log,
// imported into a memory trace and read back, holds at least 1000 stores and 1000 loads on the
// array, every element among them, made by code the importer placed in the (non-PIE) executable.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "analysis/locality/import/lackey_import.hpp"
#include "format/memory_trace_reader.hpp"
#include "format/memory_trace_writer.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr std::uint64_t kElements = 1000;

// Counts the accesses to [begin, begin + 4 * kElements), and which elements they touch.
struct ArrayAccesses : format::MemoryTraceVisitor {
  explicit ArrayAccesses(std::uint64_t array) : begin(array) {}
  void process(const format::MemoryTraceProcess& p) override { pid = p.pid; }
  void accesses(std::span<const format::MemoryAccessRecord> batch) override {
    for (const auto& a : batch) {
      ++total;
      if (a.address < begin || a.address >= begin + 4 * kElements) continue;
      const bool store = (a.flags & format::kAccessStore) != 0;
      ++(store ? stores : loads);
      (store ? stored : loaded).insert((a.address - begin) / 4);
      if (a.module != locality::kExecutableModule) ++outside_executable;
    }
  }
  std::uint64_t begin;
  std::int64_t pid = 0;
  std::uint64_t total = 0, loads = 0, stores = 0, outside_executable = 0;
  std::set<std::uint64_t> loaded, stored;
};

TEST(LocalityImport, LackeyTraceOfAnArraySum) {
  if (run_process({"valgrind", "--version"}).exit_code != 0)
    GTEST_SKIP() << "valgrind is not installed (scripts/install-deps.sh installs it)";
  TempDir tmp;
  const auto log = tmp / "sum_array.lackey";
  const std::string program = PARPERF_PROGRAM_LOCALITY_IMPORT_SUM_ARRAY;
  ProcessOptions options;
  options.timeout_seconds = 120;
  const auto run = run_process(
      {"valgrind", "--tool=lackey", "--trace-mem=yes", "--log-file=" + log.string(), program}, options);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  std::istringstream printed(run.out);
  std::uint64_t array = 0;
  long sum = 0;
  ASSERT_TRUE(printed >> std::hex >> array >> std::dec >> sum) << run.out;
  ASSERT_EQ(sum, 499500);

  const auto trace = tmp / "sum_array.ppm";
  locality::ImportStats stats;
  {
    format::MemoryTraceWriter writer(trace);
    std::ifstream in(log);
    locality::ImportOptions import_options;
    import_options.input_name = log.string();
    import_options.executable = program;
    stats = locality::import_lackey(in, writer, import_options);
    writer.finish();
  }
  EXPECT_GT(stats.skipped_lines, 0u) << "valgrind's ==pid== lines";

  ArrayAccesses seen(array);
  format::read_memory_trace(trace, seen);
  EXPECT_EQ(seen.total, stats.accesses);
  EXPECT_GT(seen.pid, 0) << "from the ==pid== lines";
  EXPECT_GE(seen.loads, kElements);
  EXPECT_GE(seen.stores, kElements);
  EXPECT_EQ(seen.loaded.size(), kElements) << "every element is read";
  EXPECT_EQ(seen.stored.size(), kElements) << "every element is written";
  EXPECT_EQ(seen.outside_executable, 0u) << "the loops are in the non-PIE executable: module-relative pcs";
}

}  // namespace
}  // namespace parperf::test
