// A protocol buffers wire-format reader for tests: splits a message into its fields (number, and
// the varint, fixed value or bytes), with no schema. Written apart from the exports' encoder, so
// that a test of the encoder does not share its mistakes. Throws std::runtime_error on bytes that
// are not a message.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::test {

struct ProtoField {
  std::uint32_t number = 0;
  std::uint32_t wire_type = 0;  // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
  std::uint64_t value = 0;      // varint and fixed
  std::string_view bytes;       // length-delimited
};

inline std::vector<ProtoField> read_proto(std::string_view message) {
  std::size_t at = 0;
  auto varint = [&]() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= message.size()) throw std::runtime_error("a varint runs past the message");
      const auto byte = static_cast<std::uint8_t>(message[at++]);
      v |= std::uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) return v;
    }
    throw std::runtime_error("a varint longer than 10 bytes");
  };
  std::vector<ProtoField> fields;
  while (at < message.size()) {
    const std::uint64_t key = varint();
    ProtoField f;
    f.number = static_cast<std::uint32_t>(key >> 3);
    f.wire_type = static_cast<std::uint32_t>(key & 7);
    if (f.number == 0) throw std::runtime_error("field number 0");
    switch (f.wire_type) {
      case 0:
        f.value = varint();
        break;
      case 1:
      case 5: {
        const std::size_t width = f.wire_type == 1 ? 8 : 4;
        if (message.size() - at < width) throw std::runtime_error("a fixed value runs past the message");
        for (std::size_t i = 0; i < width; ++i)
          f.value |= std::uint64_t{static_cast<std::uint8_t>(message[at + i])} << (8 * i);
        at += width;
        break;
      }
      case 2: {
        const std::uint64_t length = varint();
        if (length > message.size() - at) throw std::runtime_error("a length runs past the message");
        f.bytes = message.substr(at, length);
        at += length;
        break;
      }
      default:
        throw std::runtime_error("unknown wire type " + std::to_string(f.wire_type));
    }
    fields.push_back(f);
  }
  return fields;
}

// The first field `number` of `fields`, or null.
inline const ProtoField* find_field(const std::vector<ProtoField>& fields, std::uint32_t number) {
  for (const ProtoField& f : fields)
    if (f.number == number) return &f;
  return nullptr;
}

}  // namespace parperf::test
