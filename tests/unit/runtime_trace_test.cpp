// The event trace under load: four threads record while the writer takes their blocks (4 KB
// buffers: a block every few hundred events) and a fifth flushes profiles. Also run under
// ThreadSanitizer (label tsan): the hand-over between the threads and the writer, and the final
// write at exit, must be free of data races. The trace is written when this process exits;
// runtime_trace_check (tests/unit/runtime_trace_check.cpp) reads it afterwards.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "parperf/parperf.h"
#include "parperf/parperf.hpp"

namespace parperf::testing {
namespace {

constexpr int kThreads = 4;
constexpr int kEntries = 20000;  // per thread; runtime_trace_check.cpp expects as many

TEST(RuntimeTrace, ThreadsRecordWhileTheWriterTakesTheirBlocksAndProfilesAreFlushed) {
  const unsigned tick = parperf_event_create("tick", "tick %d");
  std::atomic<bool> done{false};
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t)
    workers.emplace_back([tick] {
      for (int i = 0; i < kEntries; ++i) {
        PARPERF_SCOPE("trace_outer");
        parperf_event_atomic(tick, i);
      }
    });
  std::thread flusher([&] {
    while (!done.load()) parperf_flush();
  });
  for (auto& w : workers) w.join();
  done = true;
  flusher.join();
  EXPECT_TRUE(parperf_is_recording());
}

}  // namespace
}  // namespace parperf::testing
