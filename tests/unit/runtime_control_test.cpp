// Measurement control and unbalanced API use: the interval stack must stay consistent.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "parperf/parperf.h"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

parperf_site g_a = PARPERF_SITE_INIT("ctl_a", PARPERF_KIND_USER);
parperf_site g_b = PARPERF_SITE_INIT("ctl_b", PARPERF_KIND_USER);
parperf_site g_c = PARPERF_SITE_INIT("ctl_c", PARPERF_KIND_USER);
parperf_site g_d = PARPERF_SITE_INIT("ctl_d", PARPERF_KIND_USER);

TEST(RuntimeControl, PairsStayMatchedAcrossOffAndOnSwitches) {
  ASSERT_EQ(parperf_is_recording(), 1);
  parperf_interval_begin(&g_a, 0);  // begun while on, ended while off: not recorded
  parperf_control(0);
  EXPECT_EQ(parperf_is_recording(), 0);
  parperf_interval_end(&g_a);
  parperf_interval_begin(&g_b, 0);  // begun while off
  parperf_control(1);
  parperf_interval_begin(&g_c, 0);  // inside an unrecorded interval: not recorded either
  parperf_interval_end(&g_c);
  parperf_interval_end(&g_b);
  parperf_interval_begin(&g_d, 0);  // the stack is back at the root: recorded normally
  parperf_interval_end(&g_d);

  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const auto* a = find_node(profile, thread, {"ctl_a"});
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->count, 0u) << "ctl_a ended while recording was off";
  EXPECT_EQ(find_node(profile, thread, {"ctl_b"}), nullptr);
  EXPECT_EQ(thread_with(profile, {"ctl_c"}), nullptr);
  const auto* d = find_node(profile, thread, {"ctl_d"});
  ASSERT_NE(d, nullptr) << "ctl_d must sit directly under the program interval";
  EXPECT_EQ(d->count, 1u);
}

TEST(RuntimeControl, AnEndWithoutBeginIsReportedOnceAndIgnored) {
  static parperf_site stray = PARPERF_SITE_INIT("ctl_stray", PARPERF_KIND_USER);
  ::testing::internal::CaptureStderr();
  parperf_interval_end(&stray);
  parperf_interval_end(&stray);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(messages.find("ctl_stray"), std::string::npos) << messages;
  EXPECT_NE(messages.find("runtime_control_test.cpp:"), std::string::npos) << "names file:line: " << messages;
  EXPECT_NE(messages.find("without a matching begin"), std::string::npos) << messages;
  EXPECT_EQ(messages.find("ctl_stray", messages.find("ctl_stray") + 1), std::string::npos) << "reported once";

  parperf_interval_begin(&g_d, 0);
  parperf_interval_end(&g_d);
  const auto profile = flush_and_read();
  EXPECT_EQ(find_node(profile, main_thread(profile), {"ctl_d"})->count, 2u) << "the tree is intact";
}

TEST(RuntimeControl, AMissingEndIsClosedByTheEnclosingEnd) {
  static parperf_site outer = PARPERF_SITE_INIT("ctl_outer", PARPERF_KIND_USER);
  static parperf_site forgotten = PARPERF_SITE_INIT("ctl_forgotten", PARPERF_KIND_USER);
  ::testing::internal::CaptureStderr();
  parperf_interval_begin(&outer, 0);
  parperf_interval_begin(&forgotten, 0);
  parperf_interval_end(&outer);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(messages.find("ctl_forgotten"), std::string::npos) << messages;

  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const auto* o = find_node(profile, thread, {"ctl_outer"});
  const auto* f = find_node(profile, thread, {"ctl_outer", "ctl_forgotten"});
  ASSERT_TRUE(o && f);
  EXPECT_EQ(o->count, 1u);
  EXPECT_EQ(f->count, 1u);
  EXPECT_FALSE(o->open);
  EXPECT_FALSE(f->open);
}

TEST(RuntimeControl, AnEndOfTheWrongSiteIsIgnored) {
  static parperf_site open_one = PARPERF_SITE_INIT("ctl_open_one", PARPERF_KIND_USER);
  static parperf_site wrong = PARPERF_SITE_INIT("ctl_wrong", PARPERF_KIND_USER);
  ::testing::internal::CaptureStderr();
  parperf_interval_begin(&open_one, 0);
  parperf_interval_end(&wrong);
  parperf_interval_end(&open_one);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(messages.find("ctl_wrong"), std::string::npos) << messages;
  const auto profile = flush_and_read();
  EXPECT_EQ(find_node(profile, main_thread(profile), {"ctl_open_one"})->count, 1u);
}

TEST(RuntimeControl, AForkedChildNeverReplacesTheParentsProfile) {
  static parperf_site in_parent = PARPERF_SITE_INIT("ctl_parent_only", PARPERF_KIND_USER);
  static parperf_site in_child = PARPERF_SITE_INIT("ctl_child_only", PARPERF_KIND_USER);
  parperf_interval_begin(&in_parent, 0);
  parperf_interval_end(&in_parent);
  flush_and_read();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // runs exit handlers, flushes: none of it may reach the parent's file
    parperf_interval_begin(&in_child, 0);
    parperf_interval_end(&in_child);
    parperf_flush();
    std::exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  const auto profile = read_written_profile();  // what is on disk after the child ended
  EXPECT_NE(thread_with(profile, {"ctl_parent_only"}), nullptr);
  EXPECT_EQ(thread_with(profile, {"ctl_child_only"}), nullptr) << "the forked child wrote over the profile";
  EXPECT_EQ(profile.process.pid, getpid());
}

}  // namespace
}  // namespace parperf::testing
