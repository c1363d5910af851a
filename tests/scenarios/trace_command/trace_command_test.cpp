// Scenario: `parperf trace` on a real run of trace_command.cpp (two threads; each runs "outer" >
// "inner", 10 ms per step, the main thread 3 steps bracketed by the user event "halo", the worker 2).
//
// Expected: one block per thread (the main thread registers first, so it is thread 0), each
// interval one level (two spaces) deeper than its parent, the event one level below "inner", and
// the filters choosing threads, intervals and events. A sleep lasts at least what it asks for, so
// the times are bounded below exactly (but for the clock calibration's 0.05 %) and above by a few ms
// of scheduling per step.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/clock_tolerance.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace fs = std::filesystem;
namespace {

// Two threads busy on a 2-core machine that also runs the test: a step can lose the core for a few
// ms. The listing only reports the times; their accuracy is the report scenarios' business.
constexpr double kSlack = 0.1;

class TraceCommand : public ::testing::Test {
 protected:
  // One measured run serves every test: the listing never changes the run directory.
  static void SetUpTestSuite() {
    tmp_ = std::make_unique<TempDir>();
    const auto result = measure(*tmp_ / "run", {PARPERF_PROGRAM_TRACE_COMMAND_PROGRAM});
    measured_ = result.exit_code == 0;
    if (!measured_)
      std::fprintf(stderr, "the program failed under parperf run:\n%s\n", describe(result).c_str());
  }
  static void TearDownTestSuite() { tmp_.reset(); }

  void SetUp() override { ASSERT_TRUE(measured_) << "see the failure of parperf run above"; }

  static ProcessResult trace(const std::vector<std::string>& options, const fs::path& dir = *tmp_ / "run") {
    std::vector<std::string> argv = {parperf_command().string(), "trace"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(dir.string());
    return run_process(argv);
  }

  // The listing's lines, after checking that the command succeeded and said nothing on stderr.
  static std::vector<std::string> listing(const std::vector<std::string>& options = {}) {
    const auto result = trace(options);
    EXPECT_EQ(result.exit_code, 0) << describe(result);
    EXPECT_TRUE(result.err.empty()) << result.err;
    return lines_of(result.out);
  }

  static std::unique_ptr<TempDir> tmp_;
  static bool measured_;
};

std::unique_ptr<TempDir> TraceCommand::tmp_;
bool TraceCommand::measured_ = false;

// The line that starts with `prefix` (indentation included), or "" with a failure naming it.
std::string line_starting(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const std::string& line : lines)
    if (line.rfind(prefix, 0) == 0) return line;
  std::string all;
  for (const std::string& line : lines) all += line + "\n";
  ADD_FAILURE() << "no line starts with \"" << prefix << "\"; the listing is:\n" << all;
  return "";
}

// The seconds after "total " in a line: "... total 0.0301 s ..." → 0.0301.
double total_of(const std::string& line) {
  const std::size_t at = line.find("  total ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no total in \"" << line << "\"";
    return -1;
  }
  return std::strtod(line.c_str() + at + 8, nullptr);
}

std::string halo_line(const std::vector<std::string>& block) {
  return line_starting(block, "      3 user event 'halo'  starts 3  ends 3  atomics 0  total ");
}

std::vector<std::string> headers(const std::vector<std::string>& lines) {
  std::vector<std::string> found;
  for (const std::string& line : lines)
    if (line.rfind("== ", 0) == 0) found.push_back(line.substr(0, line.find(" (")));
  return found;
}

// The lines of the block of thread `thread`, its header included.
std::vector<std::string> block_of(const std::vector<std::string>& lines, int thread) {
  const std::string header = "== rank 0 thread " + std::to_string(thread) + " ";
  std::vector<std::string> block;
  bool inside = false;
  for (const std::string& line : lines) {
    if (line.rfind("== ", 0) == 0) inside = line.rfind(header, 0) == 0;
    if (inside && !line.empty()) block.push_back(line);
  }
  return block;
}

TEST_F(TraceCommand, EachThreadListsItsNestedIntervalsAndEvents) {
  const auto lines = listing();
  ASSERT_EQ(headers(lines), (std::vector<std::string>{"== rank 0 thread 0", "== rank 0 thread 1"}));

  const auto main_thread = block_of(lines, 0);
  ASSERT_GE(main_thread.size(), 5u);
  EXPECT_NE(main_thread[0].find("lifetime "), std::string::npos) << main_thread[0];
  EXPECT_EQ(main_thread[1].rfind("1 program begins '", 0), 0u) << "the root at level 0: " << main_thread[1];
  const std::string outer = line_starting(main_thread, "  1 user interval begins 'outer' src=");
  EXPECT_NE(outer.find("trace_command.cpp("), std::string::npos)
      << "the annotation's file and line: " << outer;
  const std::string inner = line_starting(main_thread, "    3 user interval begins 'inner' src=");
  EXPECT_GE(total_of(inner), reported_at_least(0.030)) << "3 steps of 10 ms: " << inner;
  EXPECT_LE(total_of(inner), 0.030 + kSlack) << inner;
  EXPECT_NE(inner.find("  min "), std::string::npos) << "several entries show their spread: " << inner;
  EXPECT_GE(total_of(outer), total_of(inner)) << "outer holds inner";
  EXPECT_LE(total_of(halo_line(main_thread)), total_of(inner)) << "each halo lies inside an inner";
  const std::string halo = halo_line(main_thread);
  EXPECT_NE(halo.find("first: \"exchange of step 0\""), std::string::npos)
      << "the description formatted with the first start's argument: " << halo;

  const auto worker = block_of(lines, 1);
  const std::string worker_inner = line_starting(worker, "    2 user interval begins 'inner' src=");
  EXPECT_GE(total_of(worker_inner), reported_at_least(0.020)) << "2 steps of 10 ms: " << worker_inner;
  EXPECT_LE(total_of(worker_inner), 0.020 + kSlack) << worker_inner;
  for (const std::string& line : worker)
    EXPECT_EQ(line.find("user event"), std::string::npos) << "the worker has no event: " << line;
}

TEST_F(TraceCommand, ThreadAndRankChooseTheBlocks) {
  EXPECT_EQ(headers(listing({"--thread", "1"})), (std::vector<std::string>{"== rank 0 thread 1"}));
  EXPECT_EQ(headers(listing({"--thread", "0:0"})), (std::vector<std::string>{"== rank 0 thread 0"}));
  EXPECT_EQ(headers(listing({"--thread", "1", "--thread", "0"})),
            (std::vector<std::string>{"== rank 0 thread 0", "== rank 0 thread 1"}))
      << "--thread repeats; blocks stay in the run's order";
  EXPECT_EQ(headers(listing({"--rank", "0", "--thread", "0,1"})),
            (std::vector<std::string>{"== rank 0 thread 0", "== rank 0 thread 1"}));

  const auto result = trace({"--rank", "3"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_EQ(lines_of(result.err),
            (std::vector<std::string>{"parperf: no thread of the run matches --rank and --thread"}));
}

TEST_F(TraceCommand, AHiddenIntervalLeavesItsContentOneLevelUp) {
  const auto block = block_of(listing({"--no-intervals", "outer", "--thread", "0"}), 0);
  for (const std::string& line : block) EXPECT_EQ(line.find("'outer'"), std::string::npos) << line;
  line_starting(block, "  3 user interval begins 'inner'");
  line_starting(block, "    3 user event 'halo'");

  const auto only_inner = block_of(listing({"--intervals", "inner", "--thread", "0"}), 0);
  ASSERT_EQ(only_inner.size(), 3u) << "the header, inner and its event";
  EXPECT_EQ(only_inner[1].rfind("3 user interval begins 'inner'", 0), 0u) << only_inner[1];
  EXPECT_EQ(only_inner[2].rfind("  3 user event 'halo'", 0), 0u) << only_inner[2];

  const auto by_kind = block_of(listing({"--intervals", "user interval", "--thread", "0"}), 0);
  line_starting(by_kind, "1 user interval begins 'outer'");
  line_starting(by_kind, "  3 user interval begins 'inner'");
}

TEST_F(TraceCommand, EventsCanBeChosenOrHidden) {
  for (const std::vector<std::string>& options :
       std::vector<std::vector<std::string>>{{"--events", "none"},
                                             {"--no-events", "halo"},
                                             {"--no-events", "user event"},
                                             {"--events", "barrier"}}) {
    const auto lines = listing(options);
    for (const std::string& line : lines)
      EXPECT_EQ(line.find("user event"), std::string::npos)
          << options[0] << ' ' << options[1] << ": " << line;
    line_starting(block_of(lines, 0), "    3 user interval begins 'inner'");
  }
  line_starting(block_of(listing({"--events", "h*"}), 0), "      3 user event 'halo'");
  line_starting(block_of(listing({"--events", "barrier,user_event"}), 0), "      3 user event 'halo'");
}

TEST_F(TraceCommand, HelpDocumentsEveryOption) {
  const auto result = run_process({parperf_command().string(), "trace", "--help"});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  for (const char* option : {"--thread", "--rank", "--events", "--no-events", "--intervals", "--no-intervals",
                             "--partial", "R:T", "none"})
    EXPECT_NE(result.out.find(option), std::string::npos) << "--help does not mention " << option << ":\n"
                                                          << result.out;
}

TEST_F(TraceCommand, AMissingDirectoryIsOneLineAndExitOne) {
  const auto result = trace({}, *tmp_ / "no-such-run");
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(result.out.empty()) << result.out;
  const auto lines = lines_of(result.err);
  ASSERT_EQ(lines.size(), 1u) << result.err;
  EXPECT_EQ(lines[0].rfind("parperf: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("no-such-run"), std::string::npos) << "the line names the directory: " << lines[0];
}

TEST_F(TraceCommand, ADamagedProfileIsNamed) {
  const fs::path damaged = *tmp_ / "damaged";
  fs::create_directories(damaged);
  fs::copy(*tmp_ / "run", damaged, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  const auto size = fs::file_size(damaged / "profile.0.ppf");
  fs::resize_file(damaged / "profile.0.ppf", size / 2);
  const auto result = trace({}, damaged);
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(result.out.empty()) << result.out;
  const auto lines = lines_of(result.err);
  ASSERT_EQ(lines.size(), 1u) << result.err;
  EXPECT_EQ(lines[0].rfind("parperf: profile.0.ppf: truncated", 0), 0u) << lines[0];
}

TEST_F(TraceCommand, ABadThreadListIsRefusedBeforeLoading) {
  const auto result = trace({"--thread", "x"}, *tmp_ / "no-such-run");
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(lines_of(result.err),
            (std::vector<std::string>{"parperf: --thread: 'x' is not a thread number or RANK:THREAD"}));
}

}  // namespace
}  // namespace parperf::test
