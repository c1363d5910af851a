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
  parperf_interval_begin(&g_a, 0);  // begun while on, ended while off: recorded (the time before the pause)
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
  EXPECT_EQ(a->count, 1u)
      << "ctl_a was begun while recording was on: it is recorded though it ended during a pause";
  EXPECT_EQ(find_node(profile, thread, {"ctl_b"}), nullptr);
  EXPECT_EQ(thread_with(profile, {"ctl_c"}), nullptr);
  const auto* d = find_node(profile, thread, {"ctl_d"});
  ASSERT_NE(d, nullptr) << "ctl_d must sit directly under the program interval";
  EXPECT_EQ(d->count, 1u);
}

// Time while recording is off is not measured (recording_switch.hpp): the `program` interval and
// an interval open across the pause leave it out, so that switching recording on around a phase
// gives the phase's figures.
TEST(RuntimeControl, PausedTimeCountsInNoInterval) {
  static parperf_site spanning = PARPERF_SITE_INIT("ctl_spanning", PARPERF_KIND_USER);
  const auto before = flush_and_read();
  const format::Node& root_before = main_thread(before).nodes.at(0);
  const std::uint64_t program_before = root_before.sum_ns + root_before.open_ns;
  const std::uint64_t life_before = main_thread(before).end_ns - main_thread(before).start_ns;

  const Stopwatch whole;
  parperf_interval_begin(&spanning, 0);
  busy_for_ms(20);
  const Stopwatch around_pause;
  parperf_control(0);
  busy_for_ms(60);
  parperf_control(1);
  const double pause_at_most_ms = around_pause.elapsed_ms();
  busy_for_ms(20);
  parperf_interval_end(&spanning);
  const double whole_ms = whole.elapsed_ms();

  const auto after = flush_and_read();
  const format::Thread& thread = main_thread(after);
  const format::Node& root = thread.nodes.at(0);
  const double life_ms = ms(thread.end_ns - thread.start_ns - life_before);
  const double program_ms = ms(root.sum_ns + root.open_ns - program_before);
  EXPECT_GE(life_ms - program_ms, 60.0 - 0.5) << "the program interval counted some of the 60 ms paused";
  EXPECT_LE(life_ms - program_ms, pause_at_most_ms + 0.5) << "it left out more than the pause";
  const auto* s = find_node(after, thread, {"ctl_spanning"});
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->count, 1u);
  EXPECT_GE(ms(s->sum_ns), 40.0 - 0.5) << "the 2 x 20 ms recorded on either side of the pause";
  EXPECT_LE(ms(s->sum_ns), whole_ms - 60.0 + 0.5) << "an interval open across the pause counted it";
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
  EXPECT_FALSE(o->open());
  EXPECT_FALSE(f->open());
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
