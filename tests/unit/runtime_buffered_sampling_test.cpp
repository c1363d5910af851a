// Sampling without a signal a sample (PARPERF_SAMPLE_SOURCE=perf-buffer at 1 kHz of CPU time,
// runtime/perf_sample_buffer.hpp): the kernel writes each sample into the thread's buffer, and the
// thread records it later, at its next interval boundary or at the timer that empties the buffer
// every 8 periods. What must hold is what the signal's handler gave: each sample under the interval
// it was taken in, none lost while the thread stays long in one interval, and a forked child that
// goes on entering intervals runs as without parperf. Skipped, saying why, where the kernel does not
// give the thread a buffer (perf events not allowed, or its memory not lockable).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

#include "format/profile_reader.hpp"
#include "parperf/parperf.h"
#include "support/user_cpu_burn.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

// Whether the calling process has a perf-event buffer mapped (/proc/self/maps names it).
bool has_perf_buffer() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find("[perf_event]") != std::string::npos) return true;
  return false;
}

// The samples of the main thread's call paths taken in the interval node `interval`, and in all.
struct SampleCounts {
  std::uint64_t in_interval = 0, all = 0, dropped = 0;
};
SampleCounts samples_in(const format::Profile& profile, const std::vector<std::string>& path) {
  SampleCounts counts;
  const format::Thread& thread = main_thread(profile);
  const format::Node* node = find_node(profile, thread, path);
  if (!node || !profile.call_paths) return counts;
  const auto interval = static_cast<std::uint32_t>(node - thread.nodes.data());
  for (const format::CallPathThread& sampled : profile.call_paths->threads) {
    if (sampled.thread != thread.index) continue;
    counts.dropped = sampled.dropped;
    for (const format::CallPathNode& n : sampled.nodes) {
      counts.all += n.samples;
      if (n.interval == interval) counts.in_interval += n.samples;
    }
  }
  return counts;
}

class RuntimeBufferedSampling : public ::testing::Test {
 protected:
  void SetUp() override {
    burn_user_cpu_ms(5);  // the runtime started with the process: the thread's clock is open
    if (!has_perf_buffer())
      GTEST_SKIP() << "the kernel gave this thread no perf-event buffer (perf events not allowed, or "
                      "perf_event_mlock_kb and RLIMIT_MEMLOCK spent): it is sampled by signals";
  }
};

// Burns `ms` of CPU time `depth` calls deeper than its caller: each interval below burns at a depth
// of its own, so that a sample's path says which interval it was taken in.
__attribute__((noinline)) void burn_at_depth(int depth, int ms) {
  if (depth > 0) {
    burn_at_depth(depth - 1, ms);
    asm volatile("" ::: "memory");  // not a tail call: the frame stays on the stack
    return;
  }
  burn_user_cpu_ms(ms);
}
constexpr int kDeep = 24;

// Whether the sampled path that ends at node `n` of `thread`'s call paths runs through the deep burn:
// its recursion returns to one address, frame after frame, at least half of kDeep times. (Its depth
// alone does not tell: a sample in parperf's own code, under ThreadSanitizer's frames, is as deep.)
bool in_deep_burn(const format::CallPathThread& thread, std::uint32_t n) {
  int run = 1;
  for (; thread.nodes[n].parent != format::kNoParent; n = thread.nodes[n].parent) {
    const format::CallPathNode& frame = thread.nodes[n];
    const format::CallPathNode& caller = thread.nodes[frame.parent];
    run = frame.frame == 1 && caller.module == frame.module && caller.address == frame.address ? run + 1 : 1;
    if (run >= kDeep / 2) return true;
  }
  return false;
}

// 100 rounds of 3 ms in "three", kDeep calls deep, and 1 ms in "one", at the interval's own depth:
// 400 samples, three quarters in "three", and no deep path in "one". A thread that recorded its
// samples after its interval changed, or only when the timer asks, would move "three"'s samples into
// "one", deep paths with them.
TEST_F(RuntimeBufferedSampling, EachSampleIsRecordedUnderTheIntervalItWasTakenIn) {
  for (int round = 0; round < 100; ++round) {
    parperf_interval_begin_named("three", 0, __FILE__, __LINE__, 0);
    burn_at_depth(kDeep, 3);
    parperf_interval_end_named("three");
    parperf_interval_begin_named("one", 0, __FILE__, __LINE__, 0);
    burn_at_depth(0, 1);
    parperf_interval_end_named("one");
  }
  const format::Profile profile = flush_and_read();
  const SampleCounts three = samples_in(profile, {"three"});
  const SampleCounts one = samples_in(profile, {"one"});
  const double taken = static_cast<double>(three.in_interval + one.in_interval);
  // The perf-event clock counts the thread's user time exactly; the rounds' system time (reading the
  // thread's clock) is not sampled, so a little less than 400.
  ASSERT_GT(taken, 300) << "400 ms of CPU time at 1 kHz must give about 400 samples in the two intervals";
  // Binomial: 4 standard deviations of a share of 0.75 among `taken` samples.
  const double share = static_cast<double>(three.in_interval) / taken;
  EXPECT_NEAR(share, 0.75, 4 * std::sqrt(0.75 * 0.25 / taken))
      << three.in_interval << " samples in 'three' (3 ms a round) and " << one.in_interval
      << " in 'one' (1 ms a round): a sample must be recorded under the interval it was taken in";
  // Exactly none: "three"'s deep burn lies wholly inside "three".
  const format::Thread& thread = main_thread(profile);
  const auto one_node = static_cast<std::uint32_t>(find_node(profile, thread, {"one"}) - thread.nodes.data());
  const auto three_node =
      static_cast<std::uint32_t>(find_node(profile, thread, {"three"}) - thread.nodes.data());
  std::uint64_t deep_in_one = 0, deep_in_three = 0;
  for (const format::CallPathThread& sampled : profile.call_paths->threads)
    if (sampled.thread == thread.index)
      for (std::uint32_t n = 0; n < sampled.nodes.size(); ++n) {
        const format::CallPathNode& node = sampled.nodes[n];
        if (node.samples == 0 || !in_deep_burn(sampled, n)) continue;
        if (node.interval == one_node) deep_in_one += node.samples;
        if (node.interval == three_node) deep_in_three += node.samples;
      }
  // Nearly all of "three"'s samples are in its burn (a round's boundaries take microseconds of 3 ms):
  // the paths through the burn are told apart.
  EXPECT_GT(deep_in_three, three.in_interval * 9 / 10) << "the deep burn's samples were not recognised";
  EXPECT_EQ(deep_in_one, 0u) << "samples of the burn inside 'three' were recorded under 'one'";
}

// 400 ms in one interval, no boundary: about 400 samples, 13 times what the buffer holds. Without the
// timer that empties it every 8 periods, the kernel would drop all but the first 31.
TEST_F(RuntimeBufferedSampling, AThreadLongInOneIntervalLosesNoSample) {
  parperf_interval_begin_named("long", 0, __FILE__, __LINE__, 0);
  burn_user_cpu_ms(400);
  parperf_interval_end_named("long");
  const SampleCounts counts = samples_in(flush_and_read(), {"long"});
  EXPECT_GT(counts.in_interval, 340u) << "400 ms of CPU time in one interval at 1 kHz: samples were lost";
  EXPECT_LE(counts.in_interval, 410u) << "more samples than periods: a sample was recorded twice";
  EXPECT_EQ(counts.dropped, 0u) << "the buffer overflowed: its samples were not taken out in time";
}

// The kernel does not copy a perf buffer's mapping into a forked child: the child, whose runtime is
// dormant, must not look into it at its interval boundaries (it would fault).
TEST_F(RuntimeBufferedSampling, AForkedChildEntersIntervalsAsWithoutParperf) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    for (int round = 0; round < 20; ++round) {
      parperf_interval_begin_named("in_child", 0, __FILE__, __LINE__, 0);
      burn_user_cpu_ms(2);
      parperf_interval_end_named("in_child");
    }
    _exit(7);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the forked child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

}  // namespace
}  // namespace parperf::testing
