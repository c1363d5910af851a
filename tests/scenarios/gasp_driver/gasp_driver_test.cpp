// Scenario: parperf's GASP tool (libparperf-gasp.so) driven by gasp_driver.c, which calls it as a
// GASP-enabled UPC compiler's code would, for 3 UPC threads with known bytes, durations and waits
// (see the program's comment for the construction). `parperf run` measures it; the report says, at
// the file:line the events named: the puts and gets with their bytes, the barrier wait each thread
// had, the lock waits, the collectives' bytes, the forall and function intervals and the user event.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace fs = std::filesystem;
namespace {

constexpr int kThreads = 3;
constexpr int kSteps = 10;
constexpr int kPutBytes = 64;
constexpr int kMemgetBytes = 4096;
constexpr double kPut = 0.001;
constexpr double kMemget = 0.001;
constexpr double kWork = 0.020;
constexpr double kHold = 0.010;
constexpr double kMargin = 0.005;  // clock reads and the few calls between an event and its sleep

// The SRC point of `kind` at stencil.upc:`line`.
const nlohmann::json& src_point(const nlohmann::json& report, const std::string& kind, int line) {
  for (const nlohmann::json& p : field(report, "src_points"))
    if (text_of(p, "kind") == kind && integer(p, "line") == line && file_name_of(p["file"]) == "stencil.upc")
      return p;
  ADD_FAILURE() << "the report has no " << kind << " at stencil.upc:" << line << "; its SRC points are:\n"
                << field(report, "src_points").dump(1);
  return null_json();
}

class GaspDriver : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = std::make_unique<TempDir>();
    result_ = std::make_unique<ProcessResult>(measure(*tmp_ / "run", {PARPERF_PROGRAM_GASP_DRIVER}));
    measured_ = result_->exit_code == 0;
    if (!measured_) std::fprintf(stderr, "parperf run failed:\n%s\n", describe(*result_).c_str());
    if (measured_) report_ = std::make_unique<nlohmann::json>(report_json(*tmp_ / "run"));
  }
  static void TearDownTestSuite() {
    tmp_.reset();
    result_.reset();
    report_.reset();
  }
  void SetUp() override { ASSERT_TRUE(measured_) << "see the failure of parperf run above"; }

  static std::unique_ptr<TempDir> tmp_;
  static std::unique_ptr<ProcessResult> result_;
  static std::unique_ptr<nlohmann::json> report_;
  static bool measured_;
};
std::unique_ptr<TempDir> GaspDriver::tmp_;
std::unique_ptr<ProcessResult> GaspDriver::result_;
std::unique_ptr<nlohmann::json> GaspDriver::report_;
bool GaspDriver::measured_ = false;

TEST_F(GaspDriver, PutsAndGetsAreCountedWithTheirBytesAndDurations) {
  const nlohmann::json& put = src_point(*report_, "upc_put", 21);
  EXPECT_EQ(text_of(put, "name"), "shared write");
  EXPECT_EQ(integer(put, "count"), kThreads * kSteps);
  EXPECT_EQ(integer(put, "bytes"), kSteps * kPutBytes * (1 + 2 + 3))
      << "thread t puts 64 * (t + 1) bytes a step";
  EXPECT_GE(number(put, "total"), kThreads * kSteps * kPut);
  EXPECT_EQ(number(put, "wait"), 0.0) << "a put waits for no other thread";

  const nlohmann::json& get = src_point(*report_, "upc_get", 22);
  EXPECT_EQ(text_of(get, "name"), "upc_memget");
  EXPECT_EQ(integer(get, "count"), kThreads * kSteps);
  EXPECT_EQ(integer(get, "bytes"), kThreads * kSteps * kMemgetBytes);
  EXPECT_GE(number(get, "total"), kThreads * kSteps * kMemget);
  EXPECT_EQ(field(get, "locations").size(), static_cast<std::size_t>(kThreads)) << "every UPC thread reads";
}

TEST_F(GaspDriver, TheBarrierWaitIsWhereTheEarlyThreadsWaitedForTheLastOne) {
  const double overshoot = sleep_overshoot(*result_);
  const nlohmann::json& wait = src_point(*report_, "upc_wait", 31);
  EXPECT_EQ(integer(wait, "count"), kThreads);
  // Thread t works (t + 1) * 20 ms before it: the others wait 40 and 20 ms for the last.
  const double constructed = (2 + 1) * kWork;
  // A late wake-up of an early thread (the sleeps' overshoot) shortens its wait by as much.
  EXPECT_GE(number(wait, "wait"), constructed - overshoot - kThreads * kMargin)
      << "the threads' waits at upc_wait";
  EXPECT_LE(number(wait, "wait"), constructed + 2 * overshoot + kThreads * kMargin);
  EXPECT_GE(number(wait, "wait_max"), 2 * kWork - overshoot - kMargin) << "thread 0 waits longest";
  const nlohmann::json& notify = src_point(*report_, "upc_notify", 30);
  EXPECT_EQ(integer(notify, "count"), kThreads);
  EXPECT_EQ(number(notify, "wait"), 0.0) << "upc_notify does not wait";
}

TEST_F(GaspDriver, LockWaitsAreAtTheLockAndTheUnlockWaitsForNothing) {
  const double overshoot = sleep_overshoot(*result_);
  const nlohmann::json& lock = src_point(*report_, "upc_lock", 40);
  EXPECT_EQ(integer(lock, "count"), kThreads);
  // Thread 0 holds the lock while the others try; each holder keeps it 10 ms: they wait 10 and 20 ms.
  // The last to take it waits for two holds from about when thread 0's began: at least one hold even
  // if the scheduler woke it late.
  EXPECT_GE(number(lock, "wait"), kHold) << "the lock waits";
  EXPECT_LE(number(lock, "wait"), 3 * kHold + 2 * overshoot + kThreads * kMargin);
  EXPECT_GE(number(lock, "wait_max"), kHold);
  const nlohmann::json& unlock = src_point(*report_, "upc_unlock", 41);
  EXPECT_EQ(integer(unlock, "count"), kThreads);
  EXPECT_EQ(number(unlock, "wait"), 0.0);
}

TEST_F(GaspDriver, FencesNonBlockingPutsAndBulkCopiesAreAtTheirLines) {
  const nlohmann::json& fence = src_point(*report_, "upc_fence", 45);
  EXPECT_EQ(integer(fence, "count"), kThreads);
  const nlohmann::json& nb_put = src_point(*report_, "upc_put", 46);
  EXPECT_EQ(text_of(nb_put, "name"), "non-blocking put");
  EXPECT_EQ(integer(nb_put, "bytes"), kThreads * 256) << "the bytes come before the end event's handle";
  const nlohmann::json& sync = src_point(*report_, "upc_nb_sync", 47);
  EXPECT_EQ(integer(sync, "count"), kThreads);
  EXPECT_EQ(integer(sync, "bytes"), 0);
  EXPECT_EQ(integer(src_point(*report_, "upc_memcpy", 48), "bytes"), kThreads * 512);
  const nlohmann::json& memset = src_point(*report_, "upc_put", 49);
  EXPECT_EQ(text_of(memset, "name"), "upc_memset");
  EXPECT_EQ(integer(memset, "bytes"), kThreads * 128);
  const nlohmann::json& barrier = src_point(*report_, "upc_barrier", 55);
  EXPECT_EQ(integer(barrier, "count"), kThreads);
  EXPECT_NEAR(number(barrier, "wait"), number(barrier, "total"), 1e-9) << "a barrier's time is all waiting";
}

TEST_F(GaspDriver, CollectivesCarryTheirBytesAndAllocationIsManagement) {
  const nlohmann::json& broadcast = src_point(*report_, "upc_broadcast", 50);
  EXPECT_EQ(integer(broadcast, "count"), kThreads);
  EXPECT_EQ(integer(broadcast, "bytes"), kThreads * 8192);
  const nlohmann::json& reduce = src_point(*report_, "upc_reduction", 51);
  EXPECT_EQ(integer(reduce, "bytes"), kThreads * 100 * static_cast<int>(sizeof(double)))
      << "100 doubles per thread (GASP_UPC_REDUCTION_D)";
  const nlohmann::json& permute = src_point(*report_, "upc_all_to_all", 52);
  EXPECT_EQ(text_of(permute, "name"), "upc_all_permute");
  EXPECT_EQ(integer(permute, "bytes"), kThreads * 2048) << "after the permutation's third pointer";
  const nlohmann::json& prefix = src_point(*report_, "upc_reduction", 53);
  EXPECT_EQ(text_of(prefix, "name"), "upc_all_prefix_reduce");
  EXPECT_EQ(integer(prefix, "bytes"), kThreads * 100 * static_cast<int>(sizeof(int)))
      << "100 ints per thread (GASP_UPC_REDUCTION_I)";
  const nlohmann::json& alloc = src_point(*report_, "upc_management", 5);
  EXPECT_EQ(text_of(alloc, "name"), "upc_all_alloc");
  EXPECT_EQ(integer(alloc, "count"), kThreads);
  const nlohmann::json& exit = src_point(*report_, "upc_management", 60);
  EXPECT_EQ(integer(exit, "count"), kThreads) << "the collective exit of every thread";
}

TEST_F(GaspDriver, ForallAndFunctionAreIntervalsAndTheUserEventKeepsItsArguments) {
  const nlohmann::json* function = find_interval(*report_, "user", "void relax(int)");
  ASSERT_NE(function, nullptr) << "no interval for the function of GASP_C_FUNC";
  EXPECT_EQ(integer(*function, "line"), 10);
  const nlohmann::json* forall = find_interval(*function, "parallel_loop", "upc_forall");
  ASSERT_NE(forall, nullptr) << "no upc_forall interval inside the function";
  EXPECT_EQ(integer(*forall, "line"), 20);
  EXPECT_GE(number(*forall, "total_time"), kSteps * (kPut + kMemget)) << "each thread's forall";

  const nlohmann::json* program = find_interval(*report_, "program");
  ASSERT_NE(program, nullptr);
  bool found = false;
  for (const nlohmann::json* interval : {program, function}) {
    for (const nlohmann::json& e : field(*interval, "events")) {
      if (text_of(e, "name") != "phase") continue;
      found = true;
      EXPECT_EQ(integer(e, "starts"), kThreads);
      EXPECT_EQ(integer(e, "ends"), kThreads);
      EXPECT_TRUE(std::regex_match(text_of(e, "first_description"), std::regex("phase [0-2] of relax")))
          << text_of(e, "first_description");
      EXPECT_GE(number(e, "total"), kThreads * kSteps * (kPut + kMemget));
    }
  }
  EXPECT_TRUE(found) << "the user event \"phase\" of gasp_create_event is not in the report";
}

TEST_F(GaspDriver, UpcOperationsAreCommunicationAndTheirWaitsItsRealSync) {
  // Everything but the allocation (line 5) and the exit (line 60) happens inside the function.
  double waits = 0, starts = 0;
  for (const nlohmann::json& p : field(*report_, "src_points")) {
    if (text_of(p, "kind") == "upc_management") continue;
    waits += number(p, "wait");
    starts += number(p, "total") - number(p, "wait");
  }
  const nlohmann::json* function = find_interval(*report_, "user", "void relax(int)");
  ASSERT_NE(function, nullptr);
  EXPECT_NEAR(number(*function, "communication_real_sync"), waits, 1e-6)
      << "the barrier and lock waits are the communication's Real_sync";
  EXPECT_NEAR(number(*function, "communication_starts"), starts, 1e-6)
      << "the rest of the UPC operations' time is Starts";
  EXPECT_GE(waits, number(src_point(*report_, "upc_wait", 31), "wait") + kHold);
  EXPECT_GE(starts, kThreads * kSteps * (kPut + kMemget)) << "the puts' and gets' time";
  const nlohmann::json* program = find_interval(*report_, "program");
  ASSERT_NE(program, nullptr);
  EXPECT_NEAR(number(*program, "communication"), waits + starts, 1e-6);
  EXPECT_GT(number(*program, "productive_sys"), 0.0) << "the allocation and exit are management (Sys)";
}

TEST_F(GaspDriver, TheTextReportNamesTheSitesByFileAndLine) {
  const auto text = run_process({parperf_command().string(), "report", (*tmp_ / "run").string()});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  for (const char* place : {"stencil.upc:31", "stencil.upc:40", "stencil.upc:21", "stencil.upc:22"})
    EXPECT_NE(text.out.find(place), std::string::npos) << "the report does not name " << place << ":\n"
                                                       << text.out;
  EXPECT_NE(text.out.find("upc_forall"), std::string::npos) << text.out;
}

TEST(GaspTrace, EveryPutAndGetIsInTheEventTraceWithItsBytesAndLine) {
  TempDir tmp;
  const ProcessResult run = run_process({parperf_command().string(), "run", "-q", "--trace", "-o",
                                         (tmp / "run").string(), "--", PARPERF_PROGRAM_GASP_DRIVER});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const ProcessResult listing = run_process({parperf_command().string(), "trace", (tmp / "run").string()});
  ASSERT_EQ(listing.exit_code, 0) << describe(listing);
  const std::regex put(R"(0:(\d)\s+UPC put 'shared write' .*  (\d+) B  src=stencil\.upc\(21\))");
  const std::regex get(R"(UPC get 'upc_memget' .*  4096 B  src=stencil\.upc\(22\))");
  // UPC thread t puts 64 * (t + 1) bytes. The driver's threads register with parperf in whatever
  // order they start, so a parperf thread is not known to be UPC thread t: each must put one size
  // only, and the sizes must be those of UPC threads 0 to kThreads - 1.
  std::map<int, std::set<int>> sizes_by_thread;
  int puts = 0, gets = 0, phases = 0;
  std::istringstream lines(listing.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, put)) {
      ++puts;
      sizes_by_thread[std::stoi(m[1])].insert(std::stoi(m[2]));
    }
    if (std::regex_search(line, get)) ++gets;
    if (std::regex_search(line, std::regex(R"(user event 'phase' begins: "phase [0-2] of relax")"))) ++phases;
  }
  EXPECT_EQ(puts, kThreads * kSteps) << listing.out;
  std::set<int> sizes;
  for (const auto& [thread, thread_sizes] : sizes_by_thread) {
    EXPECT_EQ(thread_sizes.size(), 1u) << "thread " << thread << " put more than one size:\n" << listing.out;
    sizes.insert(thread_sizes.begin(), thread_sizes.end());
  }
  std::set<int> expected;
  for (int t = 0; t < kThreads; ++t) expected.insert(kPutBytes * (t + 1));
  EXPECT_EQ(sizes, expected) << "UPC thread t puts 64 * (t + 1) bytes:\n" << listing.out;
  EXPECT_EQ(gets, kThreads * kSteps);
  EXPECT_EQ(phases, kThreads);
}

TEST(GaspBadInput, AnEndWithoutItsStartIsReportedAndTheRunGoesOn) {
  TempDir tmp;
  const ProcessResult result = measure(tmp / "run", {PARPERF_PROGRAM_GASP_DRIVER, "stray"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.err.find("GASP event upc_unlock (tag 21) ended at stencil.upc:77 without a start"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("GASP user event 1500 (stencil.upc:78) was never created with gasp_create_event"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("the GASP tool knows the events of UPC only; model 4 is not measured"),
            std::string::npos)
      << result.err;
  const nlohmann::json report = report_json(tmp / "run");
  EXPECT_EQ(integer(src_point(report, "upc_unlock", 41), "count"), kThreads);
  for (const nlohmann::json& p : field(report, "src_points"))
    EXPECT_NE(integer(p, "line"), 79) << "an event of the OpenSHMEM context was measured as UPC's";
}

}  // namespace
}  // namespace parperf::test
