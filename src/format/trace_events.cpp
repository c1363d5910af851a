#include "format/trace_events.hpp"

#include <string>

#include "format/profile_reader.hpp"  // FormatError

namespace parperf::format {

TraceEventReader::TraceEventReader(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                   std::uint32_t count)
    : ticks_(base_ticks) {
  // Every event takes at least two bytes (its kind and a time byte): a count the bytes cannot hold
  // is a lie.
  if (count > bytes.size() / 2)
    throw FormatError(std::to_string(count) + " events cannot fit in " + std::to_string(bytes.size()) +
                      " bytes");
  kinds_ = bytes.first(count);
  std::size_t times_size = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const unsigned kind = kinds_[i] & 0x0f, length = kinds_[i] >> 4;
    if (kind == 0 || kind > kLastTraceEventKind)
      throw FormatError("event " + std::to_string(i) + ": unknown kind " + std::to_string(kind));
    if (length == 0 || length > 8)
      throw FormatError("event " + std::to_string(i) + ": a time delta of " + std::to_string(length) +
                        " bytes (1 to 8 are possible)");
    times_size += length;
  }
  if (times_size > bytes.size() - count)
    throw FormatError("the time stamps of " + std::to_string(count) + " events take " +
                      std::to_string(times_size) + " bytes, more than the block's " +
                      std::to_string(bytes.size() - count) + " after the kinds");
  time_ = bytes.data() + count;
  fields_ = bytes.subspan(count + times_size);
  if (count == 0 && !fields_.empty())
    throw FormatError(std::to_string(fields_.size()) + " bytes in a block of no events");
}

inline std::uint64_t TraceEventReader::varint() {
  std::uint64_t value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (position_ == fields_.size()) fail("its fields run past the end of the block");
    const std::uint8_t b = fields_[position_++];
    value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return value;
  }
  fail("a number longer than 64 bits");
}

inline std::uint32_t TraceEventReader::varint32(const char* what) {
  const std::uint64_t v = varint();
  if (v > 0xffffffffu) fail(std::string(what) + " " + std::to_string(v) + " exceeds 32 bits");
  return static_cast<std::uint32_t>(v);
}

inline std::int64_t TraceEventReader::zigzag() {
  const std::uint64_t v = varint();
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

bool TraceEventReader::next(TraceEvent& e) {
  if (next_ == kinds_.size()) return false;
  const std::uint8_t head = kinds_[next_];
  e.kind = static_cast<TraceEventKind>(head & 0x0f);
  std::uint64_t delta = 0;
  for (unsigned b = 0, length = head >> 4u; b < length; ++b)
    delta |= static_cast<std::uint64_t>(*time_++) << (8 * b);
  if (delta > ~ticks_) fail("its time overflows the clock");
  ticks_ += delta;
  e.ticks = ticks_;
  e.site = e.event = e.communicator = 0;
  e.value = e.match = 0;
  e.duration = e.wait = e.sync = e.bytes = 0;
  e.partner = -1;
  e.text.clear();
  switch (e.kind) {
    case TraceEventKind::enter:
      e.site = varint32("site");
      e.value = zigzag();
      break;
    case TraceEventKind::leave:
    case TraceEventKind::iteration:
      e.site = varint32("site");
      break;
    case TraceEventKind::operation:
      e.site = varint32("site");
      e.duration = varint();
      e.wait = varint();
      e.sync = varint();
      e.bytes = varint();
      e.partner = zigzag();
      e.communicator = varint32("communicator");
      e.match = zigzag();
      break;
    case TraceEventKind::event_start:
    case TraceEventKind::event_atomic: {
      e.event = varint32("event");
      const std::uint64_t length = varint();
      if (length > fields_.size() - position_) fail("the text runs past the block");
      e.text.assign(reinterpret_cast<const char*>(fields_.data() + position_),
                    static_cast<std::size_t>(length));
      position_ += static_cast<std::size_t>(length);
      break;
    }
    case TraceEventKind::event_end:
      e.event = varint32("event");
      break;
    case TraceEventKind::writer_wait:
      e.duration = varint();
      break;
    case TraceEventKind::task:
      e.value = static_cast<std::int64_t>(varint());
      break;
    case TraceEventKind::recording_off:
    case TraceEventKind::recording_on:
      break;
  }
  if (++next_ == kinds_.size() && position_ != fields_.size())
    throw FormatError(std::to_string(fields_.size() - position_) + " bytes after the fields of the block's " +
                      std::to_string(kinds_.size()) + " events");
  return true;
}

// Errors are rare: the message is built only then (decoding runs at tens of millions of events a
// second).
void TraceEventReader::fail(const std::string& what) const {
  throw FormatError("event " + std::to_string(next_) + ": " + what);
}

std::vector<TraceEvent> decode_trace_events(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                            std::uint32_t count) {
  TraceEventReader reader(bytes, base_ticks, count);
  std::vector<TraceEvent> events(count);
  for (TraceEvent& e : events) reader.next(e);
  return events;
}

}  // namespace parperf::format
