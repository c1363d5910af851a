// Parallel trace analysis ships each rank's operations as a trace of their own
// (analysis/trace/operations_trace.hpp): every operation of every thread must arrive, in order and
// with every field, and its call-path samples, and nothing else, with the process and clock records as they
// were.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "analysis/trace/operations_trace.hpp"
#include "format/memory_sink.hpp"
#include "format/record_writer.hpp"

namespace parperf::analysis {
namespace {

using format::TraceEvent;
using format::TraceEventKind;

constexpr std::uint64_t kBase = 1'000'000;

// Thread t's events: 3000 rounds of enter, an operation (every field set, distinct per round),
// an iteration, a user event and leave.
std::vector<TraceEvent> thread_events(std::uint32_t thread) {
  std::vector<TraceEvent> events;
  std::uint64_t t = kBase;
  for (std::uint32_t i = 0; i < 3000; ++i) {
    events.push_back({.kind = TraceEventKind::enter, .ticks = t += 10, .site = 1, .value = i});
    events.push_back({.kind = TraceEventKind::operation,
                      .ticks = t += 10,
                      .site = 2 + thread,
                      .duration = 5 + i,
                      .wait = i % 3,
                      .sync = i % 5,
                      .bytes = 64 * i,
                      .partner = static_cast<std::int64_t>(i % 4),
                      .communicator = 1 + i % 2,
                      .match = static_cast<std::int64_t>(i)});
    events.push_back({.kind = TraceEventKind::iteration, .ticks = t += 10, .site = 1});
    events.push_back({.kind = TraceEventKind::event_atomic, .ticks = t += 10, .event = 1, .text = "x"});
    events.push_back({.kind = TraceEventKind::leave, .ticks = t += 10, .site = 1});
  }
  return events;
}

std::vector<format::TraceSample> thread_samples(std::uint32_t block) {
  return {{kBase + 100 * block + 1, 7, 1},
          {kBase + 100 * block + 50, 8 + block, 2},
          {kBase + 100 * block + 99, 9, 1}};
}

// A trace of two threads whose events come in blocks of 1000, interleaved, with `clock`.
format::TraceFile sample(bool closed) {
  format::MemorySink sink;
  format::RecordWriter writer(sink);
  writer.file_header(format::trace_header());
  format::TraceProcessRecord process;
  process.rank = 5;
  process.origin_ticks = kBase;
  process.ticks_per_second = 1'000'000'000;
  process.skew_offset_ns = 12;
  writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::process));
  writer.record(process);
  writer.end_section();
  const std::vector<TraceEvent> all[2] = {thread_events(0), thread_events(1)};
  std::vector<std::uint8_t> buffer(1 << 20);
  for (std::size_t start = 0; start < all[0].size(); start += 1000)
    for (std::uint32_t thread : {1u, 0u}) {
      format::TraceBlockEncoder encoder(buffer.data(), buffer.size(), all[thread][start].ticks);
      for (std::size_t i = start; i < start + 1000 && i < all[thread].size(); ++i)
        encoder.append(all[thread][i]);
      format::TraceBlockRecord header;
      header.thread = thread;
      header.sequence = start / 1000;
      header.base_ticks = all[thread][start].ticks;
      header.event_count = encoder.event_count();
      const std::vector<std::uint8_t> block = format::encoded_block(buffer.data(), buffer.size(), encoder);
      header.raw_bytes = header.encoded_bytes = static_cast<std::uint32_t>(block.size());
      format::write_trace_block(writer, header, block);
    }
  // Thread 1's samples in two blocks, the second with samples its ring lost.
  for (std::uint32_t b = 0; b < 2; ++b) {
    const std::vector<format::TraceSample> s = thread_samples(b);
    std::vector<std::uint8_t> encoded(s.size() * format::kMaxSampleBytes);
    encoded.resize(format::encode_trace_samples(s.data(), s.size(), kBase, encoded.data()));
    format::TraceSampleBlockRecord header{.thread = 1, .base_ticks = kBase, .sample_count = 3, .lost = b};
    header.raw_bytes = header.encoded_bytes = static_cast<std::uint32_t>(encoded.size());
    format::write_trace_samples(writer, header, encoded);
  }
  if (closed) {
    writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::clock));
    writer.record(
        format::TraceClockRecord{.ticks_per_second = 999'999'000, .end_ticks = 9, .lost_events = 3});
    writer.end_section();
    writer.finish();
  }
  return format::decode_trace(sink.bytes());
}

TEST(OperationsTrace, EveryOperationAndIntervalBoundaryOfEveryThreadArrivesInOrderAndNothingElse) {
  for (bool closed : {true, false}) {
    SCOPED_TRACE(closed ? "a closed trace" : "a trace cut short");
    const format::TraceFile original = sample(closed);
    const format::TraceFile shipped = format::decode_trace(operations_trace(original));
    EXPECT_EQ(shipped.process.rank, 5);
    EXPECT_EQ(shipped.process.skew_offset_ns, 12);
    ASSERT_EQ(shipped.clock.has_value(), closed);
    if (closed) {
      EXPECT_EQ(shipped.clock->ticks_per_second, 999'999'000u);
    }
    std::map<std::uint32_t, std::vector<TraceEvent>> got;
    std::map<std::uint32_t, std::uint64_t> next_sequence;
    for (const format::TraceBlock& block : shipped.blocks) {
      EXPECT_EQ(block.header.sequence, next_sequence[block.header.thread]++) << "blocks in order, no gap";
      for (const TraceEvent& e : block.events) got[block.header.thread].push_back(e);
    }
    for (std::uint32_t thread : {0u, 1u}) {
      std::vector<TraceEvent> expected;
      for (const TraceEvent& e : thread_events(thread))
        if (e.kind == TraceEventKind::operation || e.kind == TraceEventKind::enter ||
            e.kind == TraceEventKind::leave)
          expected.push_back(e);
      EXPECT_EQ(got[thread], expected) << "thread " << thread;
    }
    ASSERT_EQ(shipped.sample_blocks.size(), 2u) << "the call-path samples arrive too (the path's functions)";
    for (std::uint32_t b = 0; b < 2; ++b) {
      EXPECT_EQ(shipped.sample_blocks[b].header.thread, 1u);
      EXPECT_EQ(shipped.sample_blocks[b].header.lost, b);
      EXPECT_EQ(shipped.sample_blocks[b].samples, thread_samples(b)) << "sample block " << b;
    }
  }
}

}  // namespace
}  // namespace parperf::analysis
