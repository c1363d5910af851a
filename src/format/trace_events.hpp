// The events inside a trace block (trace_records.hpp), stored as three columns rather than as rows:
//
//   kinds   one byte an event: its kind in the low 4 bits, the length in bytes (1 to 8) of its time
//           delta in the high 4;
//   times   each event's ticks since the previous event of the block (the first: since the block's
//           base_ticks), little-endian in that many bytes;
//   fields  each event's fields, every integer an unsigned LEB128 varint (signed ones zigzag-coded
//           first), a text its length and bytes.
//
// A block is the three columns one after the other. Why columns: a thread's kinds and sites repeat
// with the program's loops, while its time deltas are nearly random in their low bits. Interleaved,
// the random bytes cut every repetition short, so zstd finds only short matches and works per
// event; apart, the kinds and fields compress as long matches and the times as plain entropy-coded
// literals: half the compression time and a fifth fewer bytes (docs/trace.md has the figures).
//
// The encoder is header-only and allocation-free: the runtime fills a thread's buffer with it on
// the hot path, each column in its own region of the buffer (TraceBufferLayout); gather_trace_block
// then lays the filled parts end to end as the block. The decoder (trace_events.cpp) checks every
// length and value against the bytes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::format {

enum class TraceEventKind : std::uint8_t {
  enter = 1,          // site, value: an interval begins
  leave = 2,          // site: the innermost interval ends
  operation = 3,      // site, duration, wait, sync, bytes, partner, communicator, match: at its start
  event_start = 4,    // event, text (the description formatted with the arguments)
  event_end = 5,      // event
  event_atomic = 6,   // event, text
  iteration = 7,      // site: a loop iteration mark of the innermost interval
  recording_off = 8,  // recording paused (parperf_control, a filter): no events until recording_on
  recording_on = 9,
  writer_wait = 10,  // duration: the thread waited this long for the writer to free a buffer
  // value: the explicit task whose piece the innermost interval's entry (the event before) runs, by
  // the id its creation operation carries as `match` (since 2.2). Trace-only: not the profile's key.
  task = 11,
};
inline constexpr std::uint8_t kLastTraceEventKind = 11;

// One decoded event. Fields that the kind does not carry stay 0 (partner -1, text empty).
struct TraceEvent {
  TraceEventKind kind = TraceEventKind::enter;
  std::uint64_t ticks = 0;  // on the process's clock (TraceProcessRecord)
  std::uint32_t site = 0;   // enter, leave, operation, iteration: the profile's site id
  std::uint32_t event = 0;  // event_*: the profile's user event id
  std::int64_t value = 0;   // enter: the interval's value; task: the task's id
  std::uint64_t duration = 0;
  std::uint64_t wait = 0;
  std::uint64_t sync = 0;
  std::uint64_t bytes = 0;
  std::int64_t partner = -1;
  // operation: the collector's communicator (for MPI the profile's CommunicatorRecord::id + 1), 0
  // when none; `match` pairs operations across processes: a message's tag, a collective's sequence
  // number on its communicator.
  std::uint32_t communicator = 0;
  std::int64_t match = 0;
  std::string text{};
  bool operator==(const TraceEvent&) const = default;
};

// Where a block's columns grow while a thread fills a buffer of `capacity` bytes: the kinds in the
// first eighth, the times in the next quarter (two bytes an event: deltas up to 27 µs at 2.4 GHz), the
// fields in the rest (a site and a small value, or an operation's eight numbers). Whichever region
// fills first ends the block; the others' unused room costs memory, never disk space.
struct TraceBufferLayout {
  std::size_t times_offset = 0;  // the kinds start at 0
  std::size_t fields_offset = 0;
  std::size_t capacity = 0;
  static constexpr TraceBufferLayout of(std::size_t capacity) noexcept {
    return {capacity / 8, capacity / 8 + capacity / 4, capacity};
  }
};

// The byte length (1 to 8) of a time delta in the times column.
constexpr unsigned trace_time_length(std::uint64_t delta) noexcept {
  return (71u - static_cast<unsigned>(std::countl_zero(delta | 1))) / 8u;
}

// Encodes events into a caller's buffer. Every append returns false, writing nothing, when the
// event does not fit: the caller hands the block to the writer and starts the next one.
class TraceBlockEncoder {
 public:
  // The most an event's fields take, text aside: eight fields of at most 10 bytes each.
  static constexpr std::size_t kMaxFieldBytes = 8 * 10;
  // The smallest buffer that holds any event but a text (its fields region is then kMaxFieldBytes).
  static constexpr std::size_t kMinBufferBytes = 128;

  TraceBlockEncoder(std::uint8_t* buffer, std::size_t capacity, std::uint64_t base_ticks) noexcept
      : previous_(base_ticks) {
    const TraceBufferLayout layout = TraceBufferLayout::of(capacity);
    kinds_begin_ = kind_ = buffer;
    kinds_end_ = buffer + layout.times_offset;
    times_begin_ = time_ = buffer + layout.times_offset;
    times_end_ = buffer + layout.fields_offset;
    fields_begin_ = field_ = buffer + layout.fields_offset;
    fields_end_ = buffer + capacity;
  }

  bool enter(std::uint64_t ticks, std::uint32_t site, std::int64_t value) noexcept {
    if (!room(2 * 10)) return false;
    head(TraceEventKind::enter, ticks);
    put(site);
    put(zigzag(value));
    return true;
  }
  bool leave(std::uint64_t ticks, std::uint32_t site) noexcept {
    return site_event(TraceEventKind::leave, ticks, site);
  }
  bool iteration(std::uint64_t ticks, std::uint32_t site) noexcept {
    return site_event(TraceEventKind::iteration, ticks, site);
  }
  struct Operation {
    std::uint64_t start = 0;
    std::uint32_t site = 0;
    std::uint64_t duration = 0, wait = 0, sync = 0, bytes = 0;
    std::int64_t partner = -1;
    std::uint32_t communicator = 0;
    std::int64_t match = 0;
  };
  bool operation(const Operation& op) noexcept {
    if (!room(kMaxFieldBytes)) return false;
    head(TraceEventKind::operation, op.start);
    put(op.site), put(op.duration), put(op.wait), put(op.sync), put(op.bytes), put(zigzag(op.partner));
    put(op.communicator), put(zigzag(op.match));
    return true;
  }
  bool user_event(TraceEventKind kind, std::uint64_t ticks, std::uint32_t event,
                  std::string_view text) noexcept {
    if (!room(3 * 10 + text.size())) return false;
    head(kind, ticks);
    put(event);
    if (kind != TraceEventKind::event_end) {
      put(text.size());
      if (!text.empty()) std::memcpy(field_, text.data(), text.size());
      field_ += text.size();
    }
    return true;
  }
  bool task(std::uint64_t ticks, std::uint64_t id) noexcept {
    if (!room(10)) return false;
    head(TraceEventKind::task, ticks);
    put(id);
    return true;
  }
  bool mark(TraceEventKind kind, std::uint64_t ticks, std::uint64_t duration = 0) noexcept {
    if (!room(10)) return false;
    head(kind, ticks);
    if (kind == TraceEventKind::writer_wait) put(duration);
    return true;
  }

  // Any decoded event (tests, converters; the runtime calls the typed appends above).
  bool append(const TraceEvent& e) noexcept {
    switch (e.kind) {
      case TraceEventKind::enter:
        return enter(e.ticks, e.site, e.value);
      case TraceEventKind::leave:
        return leave(e.ticks, e.site);
      case TraceEventKind::iteration:
        return iteration(e.ticks, e.site);
      case TraceEventKind::operation:
        return operation({.start = e.ticks,
                          .site = e.site,
                          .duration = e.duration,
                          .wait = e.wait,
                          .sync = e.sync,
                          .bytes = e.bytes,
                          .partner = e.partner,
                          .communicator = e.communicator,
                          .match = e.match});
      case TraceEventKind::event_start:
      case TraceEventKind::event_end:
      case TraceEventKind::event_atomic:
        return user_event(e.kind, e.ticks, e.event, e.text);
      case TraceEventKind::recording_off:
      case TraceEventKind::recording_on:
      case TraceEventKind::writer_wait:
        return mark(e.kind, e.ticks, e.duration);
      case TraceEventKind::task:
        return task(e.ticks, static_cast<std::uint64_t>(e.value));
    }
    return false;
  }

  std::uint32_t event_count() const noexcept { return static_cast<std::uint32_t>(kind_ - kinds_begin_); }
  // The fields column's size so far: with the count, all a reader of the buffer needs to find the
  // complete events (gather_trace_block).
  std::uint32_t fields_size() const noexcept { return static_cast<std::uint32_t>(field_ - fields_begin_); }
  // The block's size: its three columns end to end.
  std::size_t size() const noexcept {
    return static_cast<std::size_t>((kind_ - kinds_begin_) + (time_ - times_begin_) +
                                    (field_ - fields_begin_));
  }

  static constexpr std::uint64_t zigzag(std::int64_t v) noexcept {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  }

 private:
  // Room for one more event with at most `field_bytes` of fields (a time takes at most 8 bytes; the
  // delta is stored with one 8-byte write).
  bool room(std::size_t field_bytes) const noexcept {
    return kind_ < kinds_end_ && times_end_ - time_ >= 8 &&
           static_cast<std::size_t>(fields_end_ - field_) >= field_bytes;
  }
  bool site_event(TraceEventKind kind, std::uint64_t ticks, std::uint32_t site) noexcept {
    if (!room(10)) return false;
    head(kind, ticks);
    put(site);
    return true;
  }
  // Time stamps of one thread do not go back; should a clock step back, the delta is 0.
  void head(TraceEventKind kind, std::uint64_t ticks) noexcept {
    std::uint64_t delta = ticks > previous_ ? ticks - previous_ : 0;
    previous_ = ticks > previous_ ? ticks : previous_;
    const unsigned length = trace_time_length(delta);
    *kind_++ = static_cast<std::uint8_t>(static_cast<unsigned>(kind) | length << 4);
    if constexpr (std::endian::native == std::endian::big) delta = __builtin_bswap64(delta);
    std::memcpy(time_, &delta, 8);  // the low `length` bytes are the delta's
    time_ += length;
  }
  void put(std::uint64_t v) noexcept {
    while (v >= 0x80) {
      *field_++ = static_cast<std::uint8_t>(v | 0x80);
      v >>= 7;
    }
    *field_++ = static_cast<std::uint8_t>(v);
  }

  std::uint8_t* kinds_begin_;
  std::uint8_t* kind_;
  std::uint8_t* kinds_end_;
  std::uint8_t* times_begin_;
  std::uint8_t* time_;
  std::uint8_t* times_end_;
  std::uint8_t* fields_begin_;
  std::uint8_t* field_;
  std::uint8_t* fields_end_;
  std::uint64_t previous_;
};

// The block held by a buffer of `capacity` bytes after `count` complete events with `fields_size`
// bytes of fields (TraceBlockEncoder::event_count and fields_size, as published), copied into `out`
// (at least `capacity` bytes) with its columns end to end. Returns the block's size; 0 when the
// counts do not describe the buffer (never for counts an encoder of that buffer gave).
inline std::size_t gather_trace_block(const std::uint8_t* buffer, std::size_t capacity, std::uint32_t count,
                                      std::uint32_t fields_size, std::uint8_t* out) noexcept {
  const TraceBufferLayout layout = TraceBufferLayout::of(capacity);
  if (count > layout.times_offset || fields_size > capacity - layout.fields_offset) return 0;
  std::size_t times_size = 0;
  for (std::uint32_t i = 0; i < count; ++i) times_size += buffer[i] >> 4;
  if (times_size > layout.fields_offset - layout.times_offset) return 0;
  std::memcpy(out, buffer, count);
  std::memcpy(out + count, buffer + layout.times_offset, times_size);
  std::memcpy(out + count + times_size, buffer + layout.fields_offset, fields_size);
  return count + times_size + fields_size;
}

// The block an encoder has filled, as stored (tests, converters; allocates).
inline std::vector<std::uint8_t> encoded_block(const std::uint8_t* buffer, std::size_t capacity,
                                               const TraceBlockEncoder& encoder) {
  std::vector<std::uint8_t> block(capacity);
  block.resize(
      gather_trace_block(buffer, capacity, encoder.event_count(), encoder.fields_size(), block.data()));
  return block;
}

// Reads the `count` events of a block's bytes (decompressed, as gather_trace_block lays them out)
// one at a time, into an event the caller keeps: a reader of a long trace holds a block's bytes, a
// few bytes an event, never its decoded events. The bytes must outlive the reader. The constructor
// checks the count, the kinds and the times column; next() each event's fields, and after the last
// event that no bytes remain. What is wrong throws FormatError naming it ("event 12: unknown kind
// 13", "event 3: the text runs past the block").
class TraceEventReader {
 public:
  TraceEventReader(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks, std::uint32_t count);
  // The next event into `event` (every field set, its text's storage reused); false after the last.
  bool next(TraceEvent& event);

 private:
  std::uint64_t varint();
  std::uint32_t varint32(const char* what);
  std::int64_t zigzag();
  [[noreturn]] void fail(const std::string& what) const;

  std::span<const std::uint8_t> kinds_;
  const std::uint8_t* time_ = nullptr;
  std::span<const std::uint8_t> fields_;
  std::size_t position_ = 0;  // in fields_
  std::uint32_t next_ = 0;    // the next event's index
  std::uint64_t ticks_ = 0;
};

// All `count` events of a block's bytes (TraceEventReader's checks; tests and small readers).
std::vector<TraceEvent> decode_trace_events(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                            std::uint32_t count);

}  // namespace parperf::format
