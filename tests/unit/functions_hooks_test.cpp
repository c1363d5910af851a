// The function hooks (libparperf-functions.so) called as the compilers' instrumentation calls them,
// in a process with the real runtime: nesting, recursion past the depth limit, exits that do not
// match (a longjmp, an exception that skipped exits), and threads. The test's own functions stand
// for instrumented ones; they are exported (ENABLE_EXPORTS), so that the sites carry their names
// (this executable runs with PARPERF_MAX_DEPTH=6, see functions.cmake).
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "unit/runtime_profile_reader.hpp"

extern "C" {
void __cyg_profile_func_enter(void* fn, void* call_site);
void __cyg_profile_func_exit(void* fn, void* call_site);

#define TEST_FUNCTION(name) \
  __attribute__((visibility("default"), noinline)) void name() { __asm__ volatile(""); }
TEST_FUNCTION(fh_outer)
TEST_FUNCTION(fh_inner)
TEST_FUNCTION(fh_a)
TEST_FUNCTION(fh_b)
TEST_FUNCTION(fh_c)
TEST_FUNCTION(fh_after)
TEST_FUNCTION(fh_recursive)
TEST_FUNCTION(fh_stray)
TEST_FUNCTION(fh_threaded)
}

namespace parperf::testing {
namespace {

void* address(void (*function)()) { return reinterpret_cast<void*>(function); }
void enter(void (*function)()) { __cyg_profile_func_enter(address(function), nullptr); }
void leave(void (*function)()) { __cyg_profile_func_exit(address(function), nullptr); }

TEST(FunctionHooks, NestedCallsBecomeNestedIntervalsCountedPerCall) {
  for (int i = 0; i < 3; ++i) {
    enter(fh_outer);
    enter(fh_inner);
    leave(fh_inner);
    leave(fh_outer);
  }
  const auto profile = flush_and_read();
  const auto* inner = find_node(profile, main_thread(profile), {"fh_outer", "fh_inner"});
  ASSERT_NE(inner, nullptr) << "fh_inner, entered inside fh_outer, is not its child";
  EXPECT_EQ(inner->count, 3u);
}

TEST(FunctionHooks, ExitsSkippedByALongjmpAreClosedByTheNextExitOfAnOpenFunction) {
  ::testing::internal::CaptureStderr();
  enter(fh_a);
  enter(fh_b);
  enter(fh_c);
  leave(fh_a);  // fh_c and fh_b never return: a longjmp to fh_a's frame
  enter(fh_after);
  leave(fh_after);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const auto* c = find_node(profile, thread, {"fh_a", "fh_b", "fh_c"});
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->count, 1u) << "fh_c's interval was closed when fh_a returned";
  EXPECT_NE(find_node(profile, thread, {"fh_after"}), nullptr)
      << "after fh_a returned, the stack is back at the program's level";
  EXPECT_NE(messages.find("still open when an enclosing interval ended"), std::string::npos) << messages;
}

TEST(FunctionHooks, AnExitWithoutEntryIsIgnored) {
  ::testing::internal::CaptureStderr();
  leave(fh_stray);
  ::testing::internal::GetCapturedStderr();
  enter(fh_outer);
  leave(fh_outer);
  const auto profile = flush_and_read();
  EXPECT_EQ(find_node(profile, main_thread(profile), {"fh_stray"}), nullptr);
  EXPECT_NE(find_node(profile, main_thread(profile), {"fh_outer"}), nullptr);
}

TEST(FunctionHooks, RecursionPastTheDepthLimitIsCountedNotRecordedAndTheStackStaysWhole) {
  const auto before = flush_and_read().process.dropped_intervals;
  for (int i = 0; i < 20; ++i) enter(fh_recursive);
  for (int i = 0; i < 20; ++i) leave(fh_recursive);
  enter(fh_after);
  leave(fh_after);
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const std::vector<std::string> six(6, "fh_recursive");
  EXPECT_NE(find_node(profile, thread, six), nullptr) << "levels 1 to 6 are recorded (PARPERF_MAX_DEPTH=6)";
  std::vector<std::string> seven = six;
  seven.emplace_back("fh_recursive");
  EXPECT_EQ(find_node(profile, thread, seven), nullptr);
  EXPECT_EQ(profile.process.dropped_intervals - before, 1u)
      << "the 7th call was cut, with the calls inside it";
  EXPECT_NE(find_node(profile, thread, {"fh_after"}), nullptr)
      << "after the recursion, back at the program's level";
}

TEST(FunctionHooks, AThreadIsRegisteredByItsFirstInstrumentedCall) {
  std::thread worker([] {
    enter(fh_threaded);
    leave(fh_threaded);
  });
  worker.join();
  const auto profile = flush_and_read();
  const auto* thread = thread_with(profile, {"fh_threaded"});
  ASSERT_NE(thread, nullptr) << "the worker's call is not in any thread's tree";
  EXPECT_NE(thread->index, main_thread(profile).index);
}

}  // namespace
}  // namespace parperf::testing
