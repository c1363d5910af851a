// A dlopen storm while sampling (PARPERF_SAMPLE_HZ=5000): two threads load a small library, call
// into it and unload it again, over and over, so that samples land while the loader holds its lock,
// inside code that is being mapped or unmapped, and in a library the sampler's module table does
// not know yet. Every 10th round a thread starts while the library is loaded: the sampler then lists
// the modules again and walks through the library by its tables, until the unload must take it
// out of the list before its code is unmapped. The handler takes no lock (a lock the loader holds would
// deadlock it: ctest's timeout ends a hang) and reads only checked memory (a read of unmapped code would
// crash the process). Also run under ThreadSanitizer and AddressSanitizer (label tsan).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <string>
#include <thread>
#include <vector>

#include "format/profile_reader.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

constexpr int kThreads = 2;
constexpr int kRounds = 400;  // each: a load, about 0.2 ms of work in the library, an unload

std::atomic<int> g_failures{0};
std::atomic<int> g_errno_clobbered{0};

void storm(std::atomic<int>* rounds_done) {
  for (int round = 0; round < kRounds; ++round) {
    void* module = dlopen(STORM_MODULE, RTLD_NOW | RTLD_LOCAL);
    if (!module) {
      g_failures.fetch_add(1);
      continue;
    }
    using Work = double (*)(int);
    const auto work = reinterpret_cast<Work>(dlsym(module, "storm_module_work"));
    errno = 4242;
    if (work) work(100000);
    if (work && round % 10 == 0) std::thread([work] { work(20000); }).join();
    if (errno != 4242) g_errno_clobbered.fetch_add(1);
    if (!work || dlclose(module) != 0) g_failures.fetch_add(1);
    rounds_done->fetch_add(1);
  }
}

TEST(RuntimeDlopenStorm, LibrariesLoadedAndUnloadedWhileSampledNeitherDeadlockNorCrash) {
  std::atomic<int> rounds_done{0};
  // The main thread storms too: under AddressSanitizer, whose own pthread_create comes first, the
  // threads the test starts are not sampled (11 samples in all were seen), the main thread always is.
  std::vector<std::thread> threads;
  for (int t = 1; t < kThreads; ++t) threads.emplace_back(storm, &rounds_done);
  storm(&rounds_done);
  for (auto& t : threads) t.join();
  EXPECT_EQ(rounds_done.load(), kThreads * kRounds) << "every load, call and unload must complete";
  EXPECT_EQ(g_failures.load(), 0) << "dlopen, dlsym or dlclose failed under sampling: " << dlerror();
  EXPECT_EQ(g_errno_clobbered.load(), 0) << "the sample handler changed errno under the program";

  const format::Profile profile = flush_and_read();
  ASSERT_TRUE(profile.call_paths) << "PARPERF_SAMPLE_HZ is set: the profile must have a call_paths section";
  std::uint64_t samples = 0;
  for (const format::CallPathThread& thread : profile.call_paths->threads) {
    samples += thread.samples;
    std::uint64_t recorded = 0;
    for (const auto& node : thread.nodes) recorded += node.samples;
    EXPECT_LE(recorded + thread.dropped, thread.samples)
        << "thread " << thread.thread << ": more samples recorded than taken";
  }
  // The main thread's 400 rounds of about 0.2 ms of CPU time at 5 kHz: hundreds of samples, even loaded.
  EXPECT_GT(samples, 100u) << "the storm's CPU time must have been sampled";
}

}  // namespace
}  // namespace parperf::testing
