// libFuzzer target over decode_profile. Any input must give a Profile or a FormatError; anything
// else (a crash, a sanitizer report, another exception escaping) is a finding. A decoded profile
// must also survive the round trip: written again and read back, it is the same profile.
//
// The custom mutator recomputes the section checksums of half the mutants, so mutations reach the
// record decoders and the cross-record checks instead of stopping at the first checksum.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "format/profile_reader.hpp"
#include "unit/format_test_profiles.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  if (seed % 2 == 0) {
    std::vector<std::uint8_t> bytes(data, data + size);
    parperf::test::reseal_checksums(bytes);
    if (!bytes.empty()) std::memcpy(data, bytes.data(), bytes.size());
  }
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parperf;
  format::Profile profile;
  try {
    profile = format::decode_profile(std::span<const std::uint8_t>(data, size));
  } catch (const format::FormatError&) {
    return 0;
  }
  const std::string difference =
      test::first_difference(format::decode_profile(test::encode_profile(profile)), profile);
  if (!difference.empty()) {
    std::fprintf(stderr, "accepted profile does not survive a round trip: %s\n", difference.c_str());
    std::abort();
  }
  return 0;
}
