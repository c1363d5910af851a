// Call-path sampling inside a process that records intervals on many threads and flushes while
// they run (PARPERF_SAMPLE_HZ=5000, a small table: PARPERF_SAMPLE_NODES=64). The handler must never
// crash, deadlock or clobber errno, every profile written meanwhile must decode, and the counts must
// add up. Also run under ThreadSanitizer and AddressSanitizer (label tsan).
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <thread>
#include <vector>

#include "format/profile_reader.hpp"
#include "parperf/parperf.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

constexpr int kThreads = 16;

std::atomic<int> g_errno_clobbered{0};

// Distinct paths: depth and value vary, so the table fills and drops.
__attribute__((noinline)) void spin_at(int depth) {
  if (depth > 0) {
    spin_at(depth - 1);
    return;
  }
  errno = 4242;
  Stopwatch watch;
  while (watch.thread_cpu_ms() < 2.0)
    if (errno != 4242) g_errno_clobbered.fetch_add(1);
}

void work(int seed) {
  for (int round = 0; round < 30; ++round) {
    PARPERF_SCOPE("sampled_outer");
    PARPERF_SCOPE_VALUE("sampled_inner", round % 3);
    spin_at((seed + round) % 7);
  }
}

TEST(RuntimeSampling, ManyThreadsAreSampledWhileTheyRecordAndProfilesAreFlushed) {
  std::atomic<bool> done{false};
  std::thread flusher([&] {
    while (!done.load())
      EXPECT_NO_THROW(flush_and_read()) << "a profile written while samples land must decode";
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) workers.emplace_back(work, t);
  for (auto& w : workers) w.join();
  done = true;
  flusher.join();
  EXPECT_EQ(g_errno_clobbered.load(), 0) << "the sample handler changed errno under the program";

  const format::Profile profile = flush_and_read();
  ASSERT_TRUE(profile.call_paths) << "PARPERF_SAMPLE_HZ is set: the profile must have a call_paths section";
  std::uint64_t samples = 0;
  int ended_threads_with_samples = 0;
  for (const format::CallPathThread& thread : profile.call_paths->threads) {
    samples += thread.samples;
    std::uint64_t recorded = 0;
    for (const auto& node : thread.nodes) recorded += node.samples;
    const auto owner = std::find_if(profile.threads.begin(), profile.threads.end(),
                                    [&](const format::Thread& t) { return t.index == thread.thread; });
    ASSERT_NE(owner, profile.threads.end());
    EXPECT_LE(thread.nodes.size(), 64u) << "PARPERF_SAMPLE_NODES=64";
    if (owner->ended && thread.samples > 0) {
      ++ended_threads_with_samples;
      EXPECT_EQ(recorded + thread.dropped, thread.samples)
          << "thread " << thread.thread << ": every sample taken is recorded or counted as dropped";
    }
  }
  // 16 threads x 60 ms of CPU time at 5 kHz: hundreds of samples, even on a loaded machine.
  EXPECT_GT(samples, 100u) << "the threads' CPU time must have been sampled";
  EXPECT_GE(ended_threads_with_samples, kThreads / 2) << "most workers must have been sampled";
}

}  // namespace
}  // namespace parperf::testing
