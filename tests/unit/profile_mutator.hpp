// Random damage to encoded profiles, with a fixed seed: byte flips and overwrites, insertions,
// deletions, duplicated and moved chunks, edited section lengths and inner counts, truncation.
// Shared by the reader's mutation test and the report's (which feeds it the mutants the reader accepts).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "unit/format_test_profiles.hpp"

namespace parperf::test {

using Bytes = std::vector<std::uint8_t>;

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : random_(seed) {}

  std::size_t below(std::size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
  }
  bool coin() { return below(2) == 0; }

  void mutate(Bytes& b) {
    switch (below(9)) {
      case 0:
        flip_bit(b);
        break;
      case 1:
        overwrite_byte(b);
        break;
      case 2:
        insert_bytes(b);
        break;
      case 3:
        erase_bytes(b);
        break;
      case 4:
        duplicate_chunk(b);
        break;
      case 5:
        move_chunk(b);
        break;
      case 6:
        edit_section_length(b);
        break;
      case 7:
        edit_inner_count(b);
        break;
      case 8:
        b.resize(below(b.size() + 1));
        break;
    }
  }

 private:
  void flip_bit(Bytes& b) {
    if (!b.empty()) b[below(b.size())] ^= static_cast<std::uint8_t>(1u << below(8));
  }
  void overwrite_byte(Bytes& b) {
    static constexpr std::array<std::uint8_t, 6> kInteresting = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
    if (!b.empty()) b[below(b.size())] = coin() ? kInteresting[below(kInteresting.size())] : byte();
  }
  void insert_bytes(Bytes& b) {
    const auto at = b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1));
    Bytes extra(1 + below(16));
    for (auto& x : extra) x = byte();
    b.insert(at, extra.begin(), extra.end());
  }
  void erase_bytes(Bytes& b) {
    if (b.empty()) return;
    const std::size_t from = below(b.size());
    const std::size_t count = 1 + below(std::min<std::size_t>(32, b.size() - from));
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(from),
            b.begin() + static_cast<std::ptrdiff_t>(from + count));
  }
  std::pair<std::size_t, std::size_t> chunk(const Bytes& b) {
    const std::size_t from = below(b.size());
    return {from, 1 + below(std::min<std::size_t>(256, b.size() - from))};
  }
  void duplicate_chunk(Bytes& b) {
    if (b.empty()) return;
    const auto [from, count] = chunk(b);
    const Bytes copy(b.begin() + static_cast<std::ptrdiff_t>(from),
                     b.begin() + static_cast<std::ptrdiff_t>(from + count));
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)), copy.begin(), copy.end());
  }
  void move_chunk(Bytes& b) {
    if (b.empty()) return;
    const auto [from, count] = chunk(b);
    const Bytes copy(b.begin() + static_cast<std::ptrdiff_t>(from),
                     b.begin() + static_cast<std::ptrdiff_t>(from + count));
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(from),
            b.begin() + static_cast<std::ptrdiff_t>(from + count));
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)), copy.begin(), copy.end());
  }
  std::uint64_t interesting_number(std::uint64_t near) {
    static constexpr std::array<std::uint64_t, 8> kValues = {0,
                                                             1,
                                                             0x7fffffff,
                                                             0xffffffff,
                                                             0x100000000,
                                                             0x7fffffffffffffff,
                                                             0x8000000000000000,
                                                             0xffffffffffffffff};
    switch (below(3)) {
      case 0:
        return kValues[below(kValues.size())];
      case 1:
        return near + 1 + below(64);
      default:
        return near - std::min<std::uint64_t>(near, 1 + below(64));
    }
  }
  // The lengths in the section headers: what the framing trusts first.
  void edit_section_length(Bytes& b) {
    const auto spans = test::section_spans(b);
    if (spans.empty()) return flip_bit(b);
    const auto& s = spans[below(spans.size())];
    test::store_uint(b, s.offset + 4, 8, interesting_number(s.length));
  }
  // A 4-byte little-window inside a payload, read as a u32: with luck a string length, an event
  // count, a parent or a site reference.
  void edit_inner_count(Bytes& b) {
    const auto spans = test::section_spans(b);
    if (spans.empty()) return flip_bit(b);
    const auto& s = spans[below(spans.size())];
    if (s.length < 4) return flip_bit(b);
    const std::size_t at = s.payload_offset + below(static_cast<std::size_t>(s.length) - 3);
    test::store_uint(b, at, 4, interesting_number(test::load_uint(b, at, 4)) & 0xffffffffu);
  }
  std::uint8_t byte() { return static_cast<std::uint8_t>(random_()); }

  std::mt19937_64 random_;
};

}  // namespace parperf::test
