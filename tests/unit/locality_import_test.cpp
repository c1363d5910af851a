// The importers of other tools' memory traces: valgrind lackey logs and the plain-text format,
// converted to `.ppm` files and read back.
#include <gtest/gtest.h>

#include <sstream>

#include "import/lackey_import.hpp"
#include "import/text_import.hpp"
#include "unit/memory_trace_test_support.hpp"

namespace parperf::test {
namespace {

using format::kAccessStore;
using format::kNoModule;
using trace_import::ImportError;
using trace_import::ImportOptions;
using trace_import::ImportStats;

struct Imported {
  ImportStats stats;
  CollectedTrace trace;
};

template <class Import>
Imported import_and_read(const std::string& input, Import import, const ImportOptions& options = {}) {
  ScratchFile file;
  Imported result;
  {
    format::MemoryTraceWriter writer(file.path(), 4);
    std::istringstream in(input);
    result.stats = import(in, writer, options);
    writer.finish();
  }
  format::read_memory_trace(file.path(), result.trace);
  return result;
}

Imported lackey(const std::string& input) { return import_and_read(input, trace_import::import_lackey); }
Imported text(const std::string& input) { return import_and_read(input, trace_import::import_text); }

// What the text importer says about `input`: its ImportError's message.
std::string text_error(const std::string& input) {
  try {
    text(input);
  } catch (const ImportError& e) {
    return e.what();
  }
  return "(no error)";
}

void expect_access(const format::MemoryAccessRecord& r, std::uint64_t address, std::uint8_t size, bool store,
                   std::uint64_t pc, std::uint16_t thread = 0) {
  EXPECT_EQ(r.address, address);
  EXPECT_EQ(r.size, size);
  EXPECT_EQ(r.flags, store ? kAccessStore : 0);
  EXPECT_EQ(r.pc, pc);
  EXPECT_EQ(r.module, kNoModule);
  EXPECT_EQ(r.thread, thread);
}

const char* const kLackeyLog =
    "==12345== Lackey, an example Valgrind tool\n"
    "==12345== Command: ./prog 3\n"
    "==12345== \n"
    " L 04022c00,8\n"  // before any instruction: pc unknown
    "I  04000b50,3\n"
    " L 04022cac,8\n"
    "I  04000b53,5\n"
    " S 7ff000398,8\n"
    " M 0421fa00,4\n"
    "I  04000b58,4\n"
    " L 7ff0003a0,32\n"
    " S 04000100,3\n"
    "hello from the program\n"
    " Loading 3 items\n"
    "==12345== \n";

TEST(LackeyImport, ReadsInstructionsLoadsStoresAndModifies) {
  const auto result = lackey(kLackeyLog);
  const auto& a = result.trace.accesses_seen;
  ASSERT_EQ(a.size(), 9u);
  expect_access(a[0], 0x4022c00, 8, false, 0);
  expect_access(a[1], 0x4022cac, 8, false, 0x4000b50);
  expect_access(a[2], 0x7ff000398, 8, true, 0x4000b53);
  expect_access(a[3], 0x421fa00, 4, false, 0x4000b53);     // a modify: the load ...
  expect_access(a[4], 0x421fa00, 4, true, 0x4000b53);      // ... then the store
  expect_access(a[5], 0x7ff0003a0, 16, false, 0x4000b58);  // 32 bytes: two pieces of 16
  expect_access(a[6], 0x7ff0003b0, 16, false, 0x4000b58);
  expect_access(a[7], 0x4000100, 2, true, 0x4000b58);  // 3 bytes: 2 + 1
  expect_access(a[8], 0x4000102, 1, true, 0x4000b58);

  EXPECT_EQ(result.stats.lines, 15u);
  EXPECT_EQ(result.stats.accesses, 9u);
  EXPECT_EQ(result.stats.loads, 5u);
  EXPECT_EQ(result.stats.stores, 4u);
  EXPECT_EQ(result.stats.split, 2u);
  EXPECT_EQ(result.stats.skipped_lines, 6u) << "4 valgrind lines, 2 lines of the program's output";

  ASSERT_EQ(result.trace.processes.size(), 1u);
  EXPECT_EQ(result.trace.processes[0].pid, 12345);
  EXPECT_EQ(result.trace.processes[0].command_line, "./prog 3");
  EXPECT_EQ(result.trace.processes[0].source, "lackey");
  EXPECT_TRUE(result.trace.all_modules.empty()) << "no executable given";
}

TEST(LackeyImport, AHugeAccessIsAnErrorWithItsLine) {
  try {
    lackey("I  04000b50,3\n L 04022cac,8\n S 1000,100000\n");
    FAIL() << "a 100000-byte access was accepted";
  } catch (const ImportError& e) {
    EXPECT_NE(std::string(e.what()).find("input:3: an access of 100000 bytes"), std::string::npos)
        << e.what();
  }
}

TEST(LackeyImport, APositionIndependentExecutableLeavesPcsAbsolute) {
  ImportOptions options;
  options.executable = "/proc/self/exe";  // this test, built as PIE by Debian's compiler
  const auto result = import_and_read("I  04000b50,3\n L 04022cac,8\n", trace_import::import_lackey, options);
  ASSERT_EQ(result.trace.all_modules.size(), 1u) << "the executable is named in the modules section";
  ASSERT_EQ(result.trace.accesses_seen.size(), 1u);
  EXPECT_EQ(result.trace.accesses_seen[0].module, kNoModule);
  EXPECT_EQ(result.trace.accesses_seen[0].pc, 0x4000b50u);
}

TEST(LackeyImport, AMissingExecutableIsAnError) {
  ImportOptions options;
  options.executable = "/nonexistent/prog";
  EXPECT_THROW(import_and_read("", trace_import::import_lackey, options), ImportError);
}

TEST(TextImport, ReadsRecordsThreadsNumbersAndComments) {
  const auto result = text(
      "# parperf-memory-trace v1\n"
      "# produced by hand\n"
      "L 0x1000 8 0x401000\n"
      "\n"
      "S 4096 4   # decimal address, no pc\n"
      "T 2\n"
      "\tL\t0X2000\t16\n"
      "T 0x1\n"
      "S 0x3000 1 0\n");
  const auto& a = result.trace.accesses_seen;
  ASSERT_EQ(a.size(), 4u);
  expect_access(a[0], 0x1000, 8, false, 0x401000);
  expect_access(a[1], 4096, 4, true, 0);
  expect_access(a[2], 0x2000, 16, false, 0, 2);
  expect_access(a[3], 0x3000, 1, true, 0, 1);
  EXPECT_EQ(result.stats.lines, 9u);
  EXPECT_EQ(result.stats.loads, 2u);
  EXPECT_EQ(result.stats.stores, 2u);
  EXPECT_EQ(result.trace.processes.at(0).source, "text");
  EXPECT_EQ(result.trace.batches, 1) << "4 accesses per section in this test";
}

TEST(TextImport, ErrorsNameTheLineAndTheProblem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"L 0x10 8\nX 1 2\n", "input:2: unknown record 'X' (expected L, S or T)"},
      {"L 0x10 3\n", "input:1: size 3 is not 1, 2, 4, 8 or 16"},
      {"L 0x10 32\n", "input:1: size 32 is not 1, 2, 4, 8 or 16"},
      {"L zz 4\n", "input:1: address 'zz' is not a number"},
      {"L 0x 4\n", "input:1: address '0x' is not a number"},
      {"S 0x10 4 pc\n", "input:1: pc 'pc' is not a number"},
      {"L 99999999999999999999 4\n", "is not a number"},
      {"L 0x10\n", "input:1: an access line is 'L <address> <size> [<pc>]'"},
      {"L 0x10 4 5 6\n", "an access line is"},
      {"\n\nT 70000\n", "input:3: thread 70000 is more than 65535"},
      {"T\n", "input:1: a thread line is 'T <thread>'"},
      {"# parperf-memory-trace v2\n", "input:1: unsupported header"},
      {"l 0x10 4\n", "unknown record 'l'"},
  };
  for (const auto& [input, expected] : cases)
    EXPECT_NE(text_error(input).find(expected), std::string::npos) << input << "-> " << text_error(input);
}

TEST(TextImport, TheHeaderIsOptionalAndOnlyTheFirstLine) {
  EXPECT_EQ(text("L 1 1\n").trace.accesses_seen.size(), 1u);
  EXPECT_EQ(text("L 1 1\n# parperf-memory-trace v2\n").trace.accesses_seen.size(), 1u)
      << "later, it is a comment like any other";
}

}  // namespace
}  // namespace parperf::test
