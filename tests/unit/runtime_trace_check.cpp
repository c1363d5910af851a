// Reads the event trace that runtime_trace_test's process wrote at its exit (the path comes from
// the environment, PARPERF_TRACE_FILE): each of the four recording threads has every one of its
// 20000 interval entries and exits and user events, in blocks numbered without a gap, and nothing
// was lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

#include "format/trace_file.hpp"

namespace parperf::testing {
namespace {

constexpr int kEntries = 20000;

TEST(RuntimeTraceCheck, EveryThreadHasAllItsEventsInBlocksWithoutGaps) {
  const char* path = std::getenv("PARPERF_TRACE_FILE");
  ASSERT_NE(path, nullptr);
  const format::TraceFile trace = format::read_trace_file(path);
  ASSERT_TRUE(trace.clock) << "the trace was closed at exit";
  EXPECT_EQ(trace.clock->lost_events, 0u);
  EXPECT_TRUE(trace.cut_short.empty()) << trace.cut_short;
  struct Counts {
    int enters = 0, leaves = 0, atomics = 0;
    std::vector<std::uint64_t> sequences;
  };
  std::map<std::uint32_t, Counts> threads;
  for (const format::TraceBlock& block : trace.blocks) {
    Counts& c = threads[block.header.thread];
    c.sequences.push_back(block.header.sequence);
    for (const format::TraceEvent& e : block.events) {
      c.enters += e.kind == format::TraceEventKind::enter;
      c.leaves += e.kind == format::TraceEventKind::leave;
      c.atomics += e.kind == format::TraceEventKind::event_atomic;
    }
  }
  int recording_threads = 0;
  for (auto& [thread, c] : threads) {
    if (c.enters == 0) continue;
    ++recording_threads;
    EXPECT_EQ(c.enters, kEntries) << "thread " << thread;
    EXPECT_EQ(c.leaves, kEntries) << "thread " << thread;
    EXPECT_EQ(c.atomics, kEntries) << "thread " << thread;
    std::sort(c.sequences.begin(), c.sequences.end());
    for (std::size_t i = 0; i < c.sequences.size(); ++i) EXPECT_EQ(c.sequences[i], i) << "thread " << thread;
    EXPECT_GT(c.sequences.size(), 10u) << "thread " << thread << ": many blocks went through the writer";
  }
  EXPECT_EQ(recording_threads, 4);
}

}  // namespace
}  // namespace parperf::testing
