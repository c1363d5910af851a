// A random-mutation run over the reader with a fixed seed: 20 000 mutants of the sample profile
// (bit flips, byte overwrites, insertions, deletions, duplicated and moved chunks, edited length and
// count fields, truncations), half of them with their section checksums recomputed so the damage
// reaches the record decoders and the cross-record checks. The reader must answer every one with a
// profile or a FormatError: no crash, no hang, no other exception (the ASan+UBSan build runs this
// too). The fixed seed makes a failure reproducible: the message names the mutant's number.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <typeinfo>
#include <vector>

#include "format/profile_reader.hpp"
#include "format/records.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::format {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint64_t kSeed = 0x5eed'9a7f'0001;
constexpr int kMutants = 20'000;

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

// The first words of a FormatError, to see which layers of the reader the mutants reached.
std::string kind_of(const std::string& message) {
  for (const char* kind :
       {"checksum mismatch", "cannot fit",       "undefined site", "undefined event", "has parent",
        "unparsed bytes",    "unexpected bytes", "announces",      "defined twice",   "appears twice",
        "has no nodes",      "process sections", "rank",           "unknown",         "not a parperf",
        "version",           "type sizes",       "byte order",     "truncated",       "empty file"})
    if (message.find(kind) != std::string::npos) return kind;
  return "other: " + message;
}

TEST(FormatMutation, TwentyThousandMutantsOfTheSampleNeverCrashTheReader) {
  const Bytes original = test::encode_profile(test::rich_sample_profile());
  Mutator mutator(kSeed);
  std::map<std::string, int> kinds;
  int accepted = 0;
  auto slowest = std::chrono::steady_clock::duration::zero();
  for (int i = 0; i < kMutants; ++i) {
    Bytes bytes = original;
    const std::size_t mutations = 1 + mutator.below(4);
    for (std::size_t m = 0; m < mutations; ++m) mutator.mutate(bytes);
    if (mutator.coin()) test::reseal_checksums(bytes);

    const auto start = std::chrono::steady_clock::now();
    try {
      decode_profile(bytes);
      ++accepted;
    } catch (const FormatError& e) {
      ++kinds[kind_of(e.what())];
    } catch (const std::exception& e) {
      ADD_FAILURE() << "mutant " << i << " (seed " << kSeed << "): " << typeid(e).name() << ": " << e.what();
    }
    slowest = std::max(slowest, std::chrono::steady_clock::now() - start);
  }

  // The run must exercise more than the checksum: each of these layers refused some mutants.
  for (const char* layer : {"checksum mismatch", "truncated", "cannot fit", "undefined site", "has parent",
                            "unparsed bytes", "unexpected bytes", "announces"})
    EXPECT_GT(kinds[layer], 0) << "no mutant reached the reader's \"" << layer << "\" check";
  for (const auto& [kind, count] : kinds) EXPECT_NE(kind.rfind("other: ", 0), 0u) << kind;
  // Decoding is linear in the file's size; a mutant that takes a whole second found a loop.
  EXPECT_LT(slowest, std::chrono::seconds(1));
  RecordProperty("accepted_mutants", accepted);
}

}  // namespace
}  // namespace parperf::format
