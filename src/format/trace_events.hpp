// The events inside a trace block (trace_records.hpp), encoded compactly: each event is its kind
// (one byte), the ticks since the previous event of the block (the first: since the block's
// base_ticks) and its fields, every integer as an unsigned LEB128 varint (signed ones zigzag-coded
// first). A thread's consecutive events are close in time and name few sites, so most events take
// 3 to 6 bytes before compression and much less after.
//
// The encoder is header-only and allocation-free: the runtime fills a thread's buffer with it on
// the hot path. The decoder (trace_events.cpp) checks every length and value against the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
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
};
inline constexpr std::uint8_t kLastTraceEventKind = 10;

// One decoded event. Fields that the kind does not carry stay 0 (partner -1, text empty).
struct TraceEvent {
  TraceEventKind kind = TraceEventKind::enter;
  std::uint64_t ticks = 0;  // on the process's clock (TraceProcessRecord)
  std::uint32_t site = 0;   // enter, leave, operation, iteration: the profile's site id
  std::uint32_t event = 0;  // event_*: the profile's user event id
  std::int64_t value = 0;   // enter: the interval's value
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

// Encodes events into a caller's buffer. Every append returns false, writing nothing, when the
// event does not fit: the caller hands the block to the writer and starts the next one.
class TraceBlockEncoder {
 public:
  // The most an event takes, text aside: kind, delta and eight fields of at most 10 bytes each.
  static constexpr std::size_t kMaxEventBytes = 1 + 9 * 10;

  TraceBlockEncoder(std::uint8_t* buffer, std::size_t capacity, std::uint64_t base_ticks) noexcept
      : buffer_(buffer), capacity_(capacity), previous_(base_ticks) {}

  bool enter(std::uint64_t ticks, std::uint32_t site, std::int64_t value) noexcept {
    if (!room(kMaxEventBytes)) return false;
    head(TraceEventKind::enter, ticks);
    put(site);
    put(zigzag(value));
    return done();
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
    if (!room(kMaxEventBytes)) return false;
    head(TraceEventKind::operation, op.start);
    put(op.site), put(op.duration), put(op.wait), put(op.sync), put(op.bytes), put(zigzag(op.partner));
    put(op.communicator), put(zigzag(op.match));
    return done();
  }
  bool user_event(TraceEventKind kind, std::uint64_t ticks, std::uint32_t event,
                  std::string_view text) noexcept {
    if (!room(kMaxEventBytes + text.size())) return false;
    head(kind, ticks);
    put(event);
    if (kind != TraceEventKind::event_end) {
      put(text.size());
      for (char c : text) buffer_[used_++] = static_cast<std::uint8_t>(c);
    }
    return done();
  }
  bool mark(TraceEventKind kind, std::uint64_t ticks, std::uint64_t duration = 0) noexcept {
    if (!room(kMaxEventBytes)) return false;
    head(kind, ticks);
    if (kind == TraceEventKind::writer_wait) put(duration);
    return done();
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
    }
    return false;
  }

  std::size_t size() const noexcept { return used_; }
  std::uint32_t event_count() const noexcept { return count_; }

  static constexpr std::uint64_t zigzag(std::int64_t v) noexcept {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  }

 private:
  bool room(std::size_t bytes) const noexcept { return capacity_ - used_ >= bytes; }
  bool site_event(TraceEventKind kind, std::uint64_t ticks, std::uint32_t site) noexcept {
    if (!room(kMaxEventBytes)) return false;
    head(kind, ticks);
    put(site);
    return done();
  }
  // Time stamps of one thread do not go back; should a clock step back, the delta is 0.
  void head(TraceEventKind kind, std::uint64_t ticks) noexcept {
    buffer_[used_++] = static_cast<std::uint8_t>(kind);
    put(ticks > previous_ ? ticks - previous_ : 0);
    if (ticks > previous_) previous_ = ticks;
  }
  void put(std::uint64_t v) noexcept {
    while (v >= 0x80) {
      buffer_[used_++] = static_cast<std::uint8_t>(v | 0x80);
      v >>= 7;
    }
    buffer_[used_++] = static_cast<std::uint8_t>(v);
  }
  bool done() noexcept {
    ++count_;
    return true;
  }

  std::uint8_t* buffer_;
  std::size_t capacity_;
  std::size_t used_ = 0;
  std::uint32_t count_ = 0;
  std::uint64_t previous_;
};

// The `count` events of a block's encoded bytes (decompressed). Throws FormatError naming what is
// wrong ("event 12: unknown kind 77", "event 3: the text runs past the block") when the bytes are
// not `count` well-formed events, or when bytes remain after them.
std::vector<TraceEvent> decode_trace_events(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                            std::uint32_t count);

}  // namespace parperf::format
