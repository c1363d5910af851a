// Depth limit, name filters, the thread and node limits (this executable runs with
// PARPERF_MAX_DEPTH=4, PARPERF_EXCLUDE=hidden*, PARPERF_MAX_THREADS=3 and PARPERF_MAX_NODES=64,
// see runtime.cmake).
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "parperf/parperf.h"
#include "parperf/parperf.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

void nest(int level, int deepest) {
  if (level > deepest) return;
  const std::string name = "lim_" + std::to_string(level);
  parperf_interval_begin_named(name.c_str(), PARPERF_KIND_USER, nullptr, 0, 0);
  nest(level + 1, deepest);
  parperf_interval_end_named(name.c_str());
}

TEST(RuntimeLimits, NestingBeyondTheMaximumDepthIsDroppedAndCounted) {
  nest(1, 6);
  const auto profile = flush_and_read();
  const auto* thread = thread_with(profile, {"lim_1"});
  ASSERT_NE(thread, nullptr);
  EXPECT_NE(find_node(profile, *thread, {"lim_1", "lim_2", "lim_3", "lim_4"}), nullptr)
      << "depth 4 is recorded";
  EXPECT_EQ(find_node(profile, *thread, {"lim_1", "lim_2", "lim_3", "lim_4", "lim_5"}), nullptr)
      << "depth 5 exceeds PARPERF_MAX_DEPTH=4";
  EXPECT_EQ(profile.process.max_depth, 4u);
  EXPECT_EQ(profile.process.dropped_intervals, 1u) << "lim_5 was cut (with lim_6 inside it)";
}

TEST(RuntimeLimits, AnExcludedIntervalIsTransparentToItsChildren) {
  {
    PARPERF_SCOPE("lim_visible_outer");
    PARPERF_SCOPE("hidden_middle");
    PARPERF_SCOPE("lim_visible_inner");
  }
  const auto profile = flush_and_read();
  const auto* thread = thread_with(profile, {"lim_visible_outer"});
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(find_node(profile, *thread, {"lim_visible_outer", "hidden_middle"}), nullptr);
  const auto* inner = find_node(profile, *thread, {"lim_visible_outer", "lim_visible_inner"});
  ASSERT_NE(inner, nullptr) << "children of an excluded interval attach to its parent";
  EXPECT_EQ(inner->count, 1u);
}

TEST(RuntimeLimits, ThreadsBeyondTheLimitAreNotMeasuredAndReportedOnce) {
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 4; ++i) {  // one at a time: the main thread and the first two make three
    std::thread worker([] { PARPERF_SCOPE("lim_thread"); });
    worker.join();
  }
  const std::string messages = ::testing::internal::GetCapturedStderr();
  const auto profile = flush_and_read();
  int measured = 0;
  for (const auto& t : profile.threads) measured += find_node(profile, t, {"lim_thread"}) ? 1 : 0;
  EXPECT_EQ(measured, 2) << "PARPERF_MAX_THREADS=3 counts the main thread too";
  EXPECT_EQ(profile.threads.size(), 3u);
  EXPECT_EQ(profile.threads_not_measured, 2u) << "the profile counts the threads it left out";
  EXPECT_NE(messages.find("more than 3 threads"), std::string::npos) << messages;
  EXPECT_EQ(messages.find("more than 3 threads", messages.find("more than 3 threads") + 1), std::string::npos)
      << "reported once: " << messages;
}

TEST(RuntimeLimits, ALengthDelimitedNameEndsAtANulByteAndSaysSoWhenBytesFollow) {
  ::testing::internal::CaptureStderr();
  // Fortran's idiom: the name with c_null_char appended, passed with its full length: no warning.
  parperf_interval_begin_n("lim_fortran\0", 12, PARPERF_KIND_USER, nullptr, 0, 0, 0);
  parperf_interval_end_n("lim_fortran\0", 12);
  const std::string quiet = ::testing::internal::GetCapturedStderr();
  ::testing::internal::CaptureStderr();
  parperf_interval_begin_n("lim_cut\0tail", 12, PARPERF_KIND_USER, nullptr, 0, 0, 0);
  parperf_interval_end_n("lim_cut\0tail", 12);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  EXPECT_NE(find_node(profile, thread, {"lim_fortran"}), nullptr);
  const auto* cut = find_node(profile, thread, {"lim_cut"});
  ASSERT_NE(cut, nullptr) << "the name ends at the NUL byte";
  EXPECT_EQ(cut->count, 1u) << "begin and end name the same interval";
  EXPECT_EQ(quiet, "") << "a trailing NUL is no news";
  EXPECT_NE(messages.find("'lim_cut' given with 12 bytes holds a NUL byte at 7"), std::string::npos)
      << "bytes after a NUL must not vanish silently: " << messages;
}

TEST(RuntimeLimits, ValuesThatNeverRepeatStopAtTheNodeLimit) {
  static parperf_site step = PARPERF_SITE_INIT("lim_step", PARPERF_KIND_USER);
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 1000; ++i) {
    parperf_interval_begin(&step, i);  // a new interval for every i
    parperf_interval_end(&step);
  }
  const std::string messages = ::testing::internal::GetCapturedStderr();
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  EXPECT_LE(thread.nodes.size(), 64u) << "PARPERF_MAX_NODES=64 bounds the tree";
  EXPECT_NE(find_node(profile, thread, {"lim_step"}, {0}), nullptr) << "the first values are recorded";
  EXPECT_EQ(find_node(profile, thread, {"lim_step"}, {999}), nullptr);
  EXPECT_GE(profile.process.dropped_intervals, 900u);
  EXPECT_NE(messages.find("lim_step"), std::string::npos) << "the warning names the site: " << messages;
}

}  // namespace
}  // namespace parperf::testing
