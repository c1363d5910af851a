// Threads: registration at any time, exit, and profiles written while other threads record.
// Also run under ThreadSanitizer (label tsan).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "format/profile_reader.hpp"
#include "parperf/parperf.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

constexpr int kEntries = 20000;

void record_many() {
  for (int i = 0; i < kEntries; ++i) {
    PARPERF_SCOPE("thr_outer");
    PARPERF_SCOPE_VALUE("thr_inner", i % 4);
  }
}

TEST(RuntimeThreads, FlushesWhileOtherThreadsRecordAreConsistent) {
  std::atomic<bool> done{false};
  std::vector<std::thread> workers;
  workers.emplace_back(record_many);
  workers.emplace_back(record_many);
  std::thread flusher([&] {
    int flushes = 0;
    while (!done.load() || flushes < 3) {
      EXPECT_NO_THROW(flush_and_read()) << "a profile written mid-run must decode";
      ++flushes;
    }
  });
  for (auto& w : workers) w.join();
  done = true;
  flusher.join();

  const auto profile = flush_and_read();
  int threads_with_work = 0;
  for (const auto& t : profile.threads) {
    const auto* outer = find_node(profile, t, {"thr_outer"});
    if (!outer) continue;
    ++threads_with_work;
    EXPECT_EQ(outer->count, static_cast<std::uint64_t>(kEntries)) << "thread " << t.index;
    std::uint64_t inner_total = 0;
    for (std::int64_t v = 0; v < 4; ++v) {
      const auto* inner = find_node(profile, t, {"thr_outer", "thr_inner"}, {0, v});
      ASSERT_NE(inner, nullptr) << "thr_inner with value " << v;
      inner_total += inner->count;
    }
    EXPECT_EQ(inner_total, static_cast<std::uint64_t>(kEntries));
    EXPECT_TRUE(t.ended) << "worker threads have exited";
    EXPECT_EQ(t.nodes[0].count, 1u) << "an exited thread's program interval is closed";
  }
  EXPECT_EQ(threads_with_work, 2);
}

TEST(RuntimeThreads, AThreadRegistersOnItsFirstCall) {
  std::thread late([] {
    busy_for_ms(5);
    PARPERF_SCOPE("thr_late");
  });
  late.join();
  const auto profile = flush_and_read();
  const auto* t = thread_with(profile, {"thr_late"});
  ASSERT_NE(t, nullptr);
  EXPECT_NE(t->index, 0u);
  EXPECT_GT(t->start_ns, 0u);
  EXPECT_GE(t->end_ns, t->start_ns);
}

TEST(RuntimeThreads, CpuTimeOfAThreadStillComputingIsCountedUpToTheFlush) {
  std::atomic<bool> busy_long_enough{false}, stop{false};
  std::thread worker([&] {
    PARPERF_SCOPE("thr_open_busy");  // one long interval: no boundary inside to read CPU time at
    Stopwatch watch;
    while (!stop.load()) {
      if (watch.thread_cpu_ms() > 40) busy_long_enough = true;
    }
  });
  while (!busy_long_enough.load()) std::this_thread::yield();
  const auto profile = flush_and_read();
  stop = true;
  worker.join();
  const auto* t = thread_with(profile, {"thr_open_busy"});
  ASSERT_NE(t, nullptr);
  const auto* node = find_node(profile, *t, {"thr_open_busy"});
  ASSERT_TRUE(node->open());
  EXPECT_GE(ms(node->os_user_self_ns + node->os_sys_self_ns), 35.0)
      << "the worker had used over 40 ms of CPU inside the interval when the profile was written";
}

}  // namespace
}  // namespace parperf::testing
