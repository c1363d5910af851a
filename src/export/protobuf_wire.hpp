// A minimal protocol buffers encoder (the wire format of protobuf.dev/programming-guides/encoding):
// fields as tag and value, integers as varints, strings and nested messages length-delimited. The
// Perfetto writer builds its packets with it; a nested message is encoded into its own buffer
// first, then appended with its length.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "format/utf8_text.hpp"

namespace parperf::exports {

class ProtoMessage {
 public:
  void uint(std::uint32_t field, std::uint64_t value) {
    tag(field, kVarint);
    varint(value);
  }
  // int32 and int64 fields: a negative value takes ten bytes, as protobuf encodes it.
  void sint(std::uint32_t field, std::int64_t value) { uint(field, static_cast<std::uint64_t>(value)); }
  void fixed64(std::uint32_t field, std::uint64_t value) {
    tag(field, kFixed64);
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>(value >> (8 * i)));
  }
  void real(std::uint32_t field, double value) { fixed64(field, std::bit_cast<std::uint64_t>(value)); }
  // A string field: protobuf readers (Perfetto's) refuse a file whose strings are not UTF-8, and the
  // names come from the measured program, so invalid bytes become U+FFFD.
  void text(std::uint32_t field, std::string_view value) {
    length_delimited(field, format::valid_utf8(value));
  }
  void message(std::uint32_t field, const ProtoMessage& nested) { length_delimited(field, nested.bytes_); }

  const std::string& bytes() const { return bytes_; }
  bool empty() const { return bytes_.empty(); }
  void clear() { bytes_.clear(); }

 private:
  static constexpr std::uint32_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2;
  void length_delimited(std::uint32_t field, std::string_view value) {
    tag(field, kLengthDelimited);
    varint(value.size());
    bytes_.append(value);
  }
  void tag(std::uint32_t field, std::uint32_t wire_type) { varint((std::uint64_t{field} << 3) | wire_type); }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
  }
  std::string bytes_;
};

}  // namespace parperf::exports
