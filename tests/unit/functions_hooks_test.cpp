// The function hooks (libparperf-functions.so) under real instrumented code
// (functions_hooks_program.c, compiled as the wrapper compiles), in a process with the real
// runtime: nesting, a longjmp that skips exits, an exit of a call that was never entered,
// recursion past the depth limit, and threads (this executable runs with PARPERF_MAX_DEPTH=6, see
// functions.cmake).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "unit/runtime_profile_reader.hpp"

extern "C" {
void __cyg_profile_func_exit(void* fn, void* call_site);
void fh_outer(void);
void fh_a(void);
void fh_recursive(int n);
void fh_threaded(void);
void fh_stray(void);
}

namespace parperf::testing {
namespace {

TEST(FunctionHooks, NestedCallsBecomeNestedIntervalsCountedPerCall) {
  for (int i = 0; i < 3; ++i) fh_outer();
  const auto profile = flush_and_read();
  const auto* inner = find_node(profile, main_thread(profile), {"fh_outer", "fh_inner"});
  ASSERT_NE(inner, nullptr) << "fh_inner, called by fh_outer, is not its child";
  EXPECT_EQ(inner->count, 3u);
}

TEST(FunctionHooks, CallsLeftByALongjmpAreClosedBeforeTheNextCall) {
  ::testing::internal::CaptureStderr();
  fh_a();
  const std::string messages = ::testing::internal::GetCapturedStderr();
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const auto* c = find_node(profile, thread, {"fh_a", "fh_b", "fh_c"});
  ASSERT_NE(c, nullptr) << "fh_a -> fh_b -> fh_c is not in the tree";
  EXPECT_EQ(c->count, 1u) << "fh_c's interval, left by the longjmp, was closed";
  EXPECT_NE(find_node(profile, thread, {"fh_a", "fh_sibling"}), nullptr)
      << "fh_sibling, called by fh_a after the longjmp, is not fh_a's child";
  EXPECT_EQ(find_node(profile, thread, {"fh_a", "fh_b", "fh_c", "fh_sibling"}), nullptr)
      << "fh_sibling was nested under fh_c, which the longjmp had left";
  EXPECT_EQ(messages.find("still open"), std::string::npos)
      << "the hooks close what the longjmp left without an unbalanced end: " << messages;
}

TEST(FunctionHooks, AnExitWithoutEntryIsIgnored) {
  ::testing::internal::CaptureStderr();
  fh_outer();  // the thread's first measured call
  __cyg_profile_func_exit(reinterpret_cast<void*>(&fh_stray), nullptr);
  fh_outer();
  const std::string messages = ::testing::internal::GetCapturedStderr();
  const auto profile = flush_and_read();
  EXPECT_EQ(find_node(profile, main_thread(profile), {"fh_stray"}), nullptr);
  EXPECT_NE(find_node(profile, main_thread(profile), {"fh_outer"}), nullptr);
  EXPECT_EQ(messages.find("without a matching begin"), std::string::npos) << messages;
}

TEST(FunctionHooks, RecursionPastTheDepthLimitIsCountedNotRecordedAndTheStackStaysWhole) {
  const auto before = flush_and_read().process.dropped_intervals;
  fh_recursive(19);  // 20 nested calls
  fh_outer();
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const std::vector<std::string> six(6, "fh_recursive");
  EXPECT_NE(find_node(profile, thread, six), nullptr) << "levels 1 to 6 are recorded (PARPERF_MAX_DEPTH=6)";
  std::vector<std::string> seven = six;
  seven.emplace_back("fh_recursive");
  EXPECT_EQ(find_node(profile, thread, seven), nullptr);
  EXPECT_EQ(profile.process.dropped_intervals - before, 1u)
      << "the 7th call was cut, with the calls inside it";
  EXPECT_NE(find_node(profile, thread, {"fh_outer"}), nullptr)
      << "after the recursion, back at the program's level";
}

TEST(FunctionHooks, AThreadIsRegisteredByItsFirstInstrumentedCall) {
  std::thread worker([] { fh_threaded(); });
  worker.join();
  const auto profile = flush_and_read();
  const auto* thread = thread_with(profile, {"fh_threaded"});
  ASSERT_NE(thread, nullptr) << "the worker's call is not in any thread's tree";
  EXPECT_NE(thread->index, main_thread(profile).index);
}

}  // namespace
}  // namespace parperf::testing
