// Exhaustive damage to a sample profile: every truncation and every single-bit flip. Each must be
// refused with a FormatError (never a crash, never another exception, never a wrong profile), except
// the few header bits that are deliberately not checked, listed below with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "format/profile_reader.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::format {
namespace {

using Bytes = std::vector<std::uint8_t>;

struct Outcome {
  bool accepted = false;
  std::string message;  // FormatError's, or a description of any other exception
  Profile profile;
};

Outcome decode(const Bytes& bytes) {
  Outcome o;
  try {
    o.profile = decode_profile(bytes);
    o.accepted = true;
  } catch (const FormatError& e) {
    o.message = e.what();
  } catch (const std::exception& e) {
    o.message = std::string("not a FormatError: ") + e.what();
  }
  return o;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

TEST(FormatDamageSweep, EveryTruncationOfTheSampleIsRefusedAsTruncated) {
  const Bytes whole = test::encode_profile(test::rich_sample_profile());
  for (std::size_t size = 0; size < whole.size(); ++size) {
    const Outcome o = decode(Bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(size)));
    ASSERT_FALSE(o.accepted) << "the first " << size << " of " << whole.size() << " bytes were accepted";
    const bool named =
        size == 0 ? starts_with(o.message, "empty file") : starts_with(o.message, "truncated: ");
    EXPECT_TRUE(named) << "cut at byte " << size << ": " << o.message;
  }
}

// Header bits the reader deliberately does not check; no checksum covers the file header.
//  - version minor (offsets 10-11): a newer minor version is readable by design;
//  - reserved (offset 15): kept free for a later minor version.
// A flip there must decode to exactly the profile that was written.
bool unchecked_header_byte(std::size_t offset) { return offset == 10 || offset == 11 || offset == 15; }

TEST(FormatDamageSweep, EverySingleBitFlipIsRefusedOrProvablyHarmless) {
  const Profile written = test::rich_sample_profile();
  const Bytes original = test::encode_profile(written);
  std::size_t harmless = 0;
  for (std::size_t bit = 0; bit < original.size() * 8; ++bit) {
    Bytes bytes = original;
    const std::size_t offset = bit / 8;
    bytes[offset] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    const Outcome o = decode(bytes);
    if (!o.accepted) {
      EXPECT_FALSE(starts_with(o.message, "not a FormatError")) << "bit " << bit << ": " << o.message;
      continue;
    }
    ASSERT_TRUE(unchecked_header_byte(offset))
        << "flipping bit " << bit % 8 << " of byte " << offset << " went unnoticed";
    EXPECT_EQ(test::first_difference(o.profile, written), "") << "bit " << bit;
    ++harmless;
  }
  EXPECT_EQ(harmless, 3u * 8u) << "every bit of the unchecked header bytes decodes, and only those";
}

TEST(FormatDamageSweep, EveryBitFlipBehindResealedChecksumsIsDecodedOrRefusedCleanly) {
  // With the checksums recomputed, damage reaches the record decoders and the cross-record checks.
  // A flip in a count, a length or a reference may still describe a valid profile, so acceptance is
  // allowed here; what is not allowed is any failure other than a FormatError.
  const Bytes original = test::encode_profile(test::rich_sample_profile());
  const auto first_payload = test::section_spans(original).front().payload_offset;
  std::size_t refused = 0;
  for (std::size_t bit = first_payload * 8; bit < original.size() * 8; ++bit) {
    Bytes bytes = original;
    bytes[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    test::reseal_checksums(bytes);
    const Outcome o = decode(bytes);
    EXPECT_FALSE(starts_with(o.message, "not a FormatError")) << "bit " << bit << ": " << o.message;
    if (!o.accepted) ++refused;
  }
  EXPECT_GT(refused, 0u);
}

TEST(FormatDamageSweep, EveryByteOverwrittenWithZeroOrAllOnesIsRefusedOutsideTheUncheckedHeader) {
  // Zeroed and erased-flash patterns: what a torn write or a bad block leaves behind.
  const Bytes original = test::encode_profile(test::rich_sample_profile());
  for (const std::uint8_t fill : {std::uint8_t{0x00}, std::uint8_t{0xff}}) {
    for (std::size_t offset = 0; offset < original.size(); ++offset) {
      if (original[offset] == fill || unchecked_header_byte(offset)) continue;
      Bytes bytes = original;
      bytes[offset] = fill;
      const Outcome o = decode(bytes);
      EXPECT_FALSE(o.accepted) << "byte " << offset << " set to " << int{fill} << " went unnoticed";
      EXPECT_FALSE(starts_with(o.message, "not a FormatError")) << "byte " << offset << ": " << o.message;
    }
  }
}

}  // namespace
}  // namespace parperf::format
