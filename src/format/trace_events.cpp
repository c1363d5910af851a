#include "format/trace_events.hpp"

#include <string>

#include "format/profile_reader.hpp"  // FormatError

namespace parperf::format {
namespace {

class EventCursor {
 public:
  explicit EventCursor(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  bool at_end() const { return position_ == bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - position_; }

  std::uint8_t byte(const std::string& where) {
    if (at_end()) throw FormatError(where + ": the block ends in the middle of the event");
    return bytes_[position_++];
  }
  std::uint64_t varint(const std::string& where) {
    std::uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte(where);
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return value;
    }
    throw FormatError(where + ": a number longer than 64 bits");
  }
  std::uint32_t varint32(const std::string& where, const char* what) {
    const std::uint64_t v = varint(where);
    if (v > 0xffffffffu)
      throw FormatError(where + ": " + what + " " + std::to_string(v) + " exceeds 32 bits");
    return static_cast<std::uint32_t>(v);
  }
  std::int64_t zigzag(const std::string& where) {
    const std::uint64_t v = varint(where);
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  std::string text(const std::string& where) {
    const std::uint64_t length = varint(where);
    if (length > remaining()) throw FormatError(where + ": the text runs past the block");
    std::string s(reinterpret_cast<const char*>(bytes_.data() + position_), static_cast<std::size_t>(length));
    position_ += static_cast<std::size_t>(length);
    return s;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};

}  // namespace

std::vector<TraceEvent> decode_trace_events(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                            std::uint32_t count) {
  std::vector<TraceEvent> events;
  // Every event takes at least two bytes: a count the bytes cannot hold is a lie.
  if (count > bytes.size() / 2)
    throw FormatError(std::to_string(count) + " events cannot fit in " + std::to_string(bytes.size()) +
                      " bytes");
  events.reserve(count);
  EventCursor in(bytes);
  std::uint64_t ticks = base_ticks;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string where = "event " + std::to_string(i);
    TraceEvent e;
    const std::uint8_t kind = in.byte(where);
    if (kind == 0 || kind > kLastTraceEventKind)
      throw FormatError(where + ": unknown kind " + std::to_string(kind));
    e.kind = static_cast<TraceEventKind>(kind);
    const std::uint64_t delta = in.varint(where);
    if (delta > ~ticks) throw FormatError(where + ": its time overflows the clock");
    ticks += delta;
    e.ticks = ticks;
    switch (e.kind) {
      case TraceEventKind::enter:
        e.site = in.varint32(where, "site");
        e.value = in.zigzag(where);
        break;
      case TraceEventKind::leave:
      case TraceEventKind::iteration:
        e.site = in.varint32(where, "site");
        break;
      case TraceEventKind::operation:
        e.site = in.varint32(where, "site");
        e.duration = in.varint(where);
        e.wait = in.varint(where);
        e.sync = in.varint(where);
        e.bytes = in.varint(where);
        e.partner = in.zigzag(where);
        e.communicator = in.varint32(where, "communicator");
        e.match = in.zigzag(where);
        break;
      case TraceEventKind::event_start:
      case TraceEventKind::event_atomic:
        e.event = in.varint32(where, "event");
        e.text = in.text(where);
        break;
      case TraceEventKind::event_end:
        e.event = in.varint32(where, "event");
        break;
      case TraceEventKind::writer_wait:
        e.duration = in.varint(where);
        break;
      case TraceEventKind::recording_off:
      case TraceEventKind::recording_on:
        break;
    }
    events.push_back(std::move(e));
  }
  if (!in.at_end())
    throw FormatError(std::to_string(in.remaining()) + " bytes after the block's " + std::to_string(count) +
                      " events");
  return events;
}

}  // namespace parperf::format
