// The event trace file (`trace.<rank>.ppt`), version 2.2: every interval entry and exit, operation
// and user event of one process with its time stamp, and with call-path sampling its samples, beside the
// profile of the same run (docs/format.md, "The event trace file"). The container is the profile's (file
// header, sections with a CRC-32C, end marker and section count) with its own magic; sites and user events
// are those of the profile written by the same process, referred to by their ids.
//
// The events of one thread come in blocks: a block section holds a TraceBlockRecord and then the
// block's events, encoded compactly (trace_events.hpp) and compressed with zstd when that helps.
// A writer appends blocks while the program runs, so a trace cut short (the program was killed) is
// still read up to its last complete block. Sample blocks (since 2.1) hold a thread's call-path
// samples the same way (trace_samples.hpp); a 2.0 reader skips them. Task events (since 2.2) name
// the explicit task an interval's entry runs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "format/records.hpp"

namespace parperf::format {

inline constexpr std::array<std::uint8_t, 8> kTraceMagic = {0x89, 'P', 'P', 'T', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint16_t kTraceVersionMajor = 2;
inline constexpr std::uint16_t kTraceVersionMinor = 2;
inline constexpr const char* kTracePrefix = "trace.";  // trace.<rank>.ppt
inline constexpr const char* kTraceSuffix = ".ppt";

// "trace.<rank>.ppt". Returns what snprintf returns.
inline int trace_file_name(char* buffer, std::size_t size, std::int64_t rank) {
  return std::snprintf(buffer, size, "%s%lld%s", kTracePrefix, static_cast<long long>(rank), kTraceSuffix);
}

enum class TraceSection : std::uint32_t {
  process = 1,  // one TraceProcessRecord, first
  block = 2,    // one TraceBlockRecord, then `encoded_bytes` bytes of events
  clock = 3,    // one TraceClockRecord, last: the calibration of the whole run
  samples = 4,  // one TraceSampleBlockRecord, then `encoded_bytes` bytes of samples (since 2.1)
};

// TraceBlockRecord::compression
enum class TraceCompression : std::uint32_t { none = 0, zstd = 1 };

// A block's events decode to at most this many bytes: a reader refuses larger claims before it
// allocates (the runtime's blocks are far smaller).
inline constexpr std::uint32_t kMaxTraceBlockBytes = 64u << 20;
// The largest section of an event trace: a block's record and at most kMaxTraceBlockBytes of contents
// (the writer keeps a compressed block only when it is smaller than its raw bytes). A larger claim
// is refused before the reader checksums it.
inline constexpr std::uint64_t kMaxTraceSectionBytes = std::uint64_t{kMaxTraceBlockBytes} + 4096;

struct TraceProcessRecord {
  static constexpr std::string_view kName = "TraceProcessRecord";
  std::int64_t rank = 0;
  std::int64_t pid = 0;
  std::uint64_t origin_ticks = 0;      // the clock's reading at the process's start (time 0)
  std::uint64_t ticks_per_second = 0;  // an estimate at start; TraceClockRecord has the calibration
  std::uint32_t clock_source = 0;      // ClockSource
  std::uint32_t reserved = 0;
  // A clock error injected for tests of the clock correction (PARPERF_TEST_CLOCK_SKEW), applied to
  // time stamps as the profile applies it: ns since origin t becomes t * (1 + drift) + offset.
  std::int64_t skew_offset_ns = 0;
  std::int64_t skew_drift_ppb = 0;  // drift in parts per 10^9
};

struct TraceBlockRecord {
  static constexpr std::string_view kName = "TraceBlockRecord";
  std::uint32_t thread = 0;       // ThreadRecord::index of the profile
  std::uint32_t compression = 0;  // TraceCompression
  std::uint64_t sequence = 0;     // the thread's blocks are numbered from 0: a gap is a lost block
  std::uint64_t base_ticks = 0;   // the first event's time is base_ticks + its delta
  std::uint32_t event_count = 0;
  std::uint32_t raw_bytes = 0;      // the events' encoded size before compression
  std::uint32_t encoded_bytes = 0;  // what follows in the section (raw_bytes when not compressed)
  std::uint32_t reserved = 0;
};

// A thread's call-path samples, in the order it took them: each the time, the call-path node its
// path ended at and its weight (trace_samples.hpp). The thread's sample blocks come in file order.
struct TraceSampleBlockRecord {
  static constexpr std::string_view kName = "TraceSampleBlockRecord";
  std::uint32_t thread = 0;       // ThreadRecord::index of the profile
  std::uint32_t compression = 0;  // TraceCompression
  std::uint64_t base_ticks = 0;   // the first sample's time is base_ticks + its delta
  std::uint32_t sample_count = 0;
  std::uint32_t raw_bytes = 0;      // the samples' encoded size before compression
  std::uint32_t encoded_bytes = 0;  // what follows in the section (raw_bytes when not compressed)
  std::uint32_t reserved = 0;
  // Samples (timer periods) the thread took since its previous sample block that its ring could not
  // hold: the writer fell behind. They are in the profile's counts, not in the trace.
  std::uint64_t lost = 0;
};

struct TraceClockRecord {
  static constexpr std::string_view kName = "TraceClockRecord";
  std::uint64_t ticks_per_second = 0;  // calibrated over the whole run
  std::uint64_t end_ticks = 0;         // the clock's reading when the trace was closed
  std::uint64_t lost_events = 0;       // events not recorded (the writer fell behind, a disk filled)
  std::uint64_t writer_wait_ns = 0;    // time the program waited for the writer to free a buffer
};

template <class F>
void named_fields(TraceProcessRecord& r, F&& f) {
  f("rank", r.rank), f("pid", r.pid), f("origin_ticks", r.origin_ticks),
      f("ticks_per_second", r.ticks_per_second), f("clock_source", r.clock_source), f("reserved", r.reserved),
      f("skew_offset_ns", r.skew_offset_ns), f("skew_drift_ppb", r.skew_drift_ppb);
}
template <class F>
void named_fields(TraceBlockRecord& r, F&& f) {
  f("thread", r.thread), f("compression", r.compression), f("sequence", r.sequence),
      f("base_ticks", r.base_ticks), f("event_count", r.event_count), f("raw_bytes", r.raw_bytes),
      f("encoded_bytes", r.encoded_bytes), f("reserved", r.reserved);
}
template <class F>
void named_fields(TraceSampleBlockRecord& r, F&& f) {
  f("thread", r.thread), f("compression", r.compression), f("base_ticks", r.base_ticks),
      f("sample_count", r.sample_count), f("raw_bytes", r.raw_bytes), f("encoded_bytes", r.encoded_bytes),
      f("reserved", r.reserved), f("lost", r.lost);
}
template <class F>
void named_fields(TraceClockRecord& r, F&& f) {
  f("ticks_per_second", r.ticks_per_second), f("end_ticks", r.end_ticks), f("lost_events", r.lost_events),
      f("writer_wait_ns", r.writer_wait_ns);
}

// The records of a trace file, each with its table in docs/format.md.
using TraceRecords =
    RecordList<TraceProcessRecord, TraceBlockRecord, TraceSampleBlockRecord, TraceClockRecord>;

// The event trace's file header.
inline FileHeader trace_header() {
  return file_header_of(kTraceMagic, kTraceVersionMajor, kTraceVersionMinor);
}

}  // namespace parperf::format
