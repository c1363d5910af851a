// A random-mutation run over the reader with a fixed seed: 20 000 mutants of the sample profile
// (bit flips, byte overwrites, insertions, deletions, duplicated and moved chunks, edited length and
// count fields, truncations), half of them with their section checksums recomputed so the damage
// reaches the record decoders and the cross-record checks. The reader must answer every one with a
// profile or a FormatError: no crash, no hang, no other exception (the ASan+UBSan build runs this
// too). The fixed seed makes a failure reproducible: the message names the mutant's number.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <typeinfo>
#include <vector>

#include "format/profile_reader.hpp"
#include "format/records.hpp"
#include "unit/format_test_profiles.hpp"
#include "unit/profile_mutator.hpp"

namespace parperf::format {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint64_t kSeed = 0x5eed'9a7f'0002;  // 0001 until the sample grew its iterations section
constexpr int kMutants = 20'000;

using test::Mutator;

// The first words of a FormatError, to see which layers of the reader the mutants reached.
std::string kind_of(const std::string& message) {
  for (const char* kind : {"checksum mismatch",
                           "cannot fit",
                           "undefined site",
                           "undefined operation site",
                           "undefined event",
                           "has parent",
                           "unparsed bytes",
                           "unexpected bytes",
                           "announces",
                           "defined twice",
                           "appears twice",
                           "has no nodes",
                           "process sections",
                           "rank",
                           "unknown",
                           "not a parperf",
                           "version",
                           "type sizes",
                           "byte order",
                           "truncated",
                           "empty file",
                           "does not hold",
                           "second mpi section",
                           "second shmem section",
                           "(shmem): PE",
                           "traffic to PE",
                           "iteration bucket",
                           "has id",
                           "before its parent",
                           "names module",
                           "sample clock",
                           "record more samples",
                           "more than a process can start",
                           "section may hold"})
    if (message.find(kind) != std::string::npos) return kind;
  return "other: " + message;
}

TEST(FormatMutation, TwentyThousandMutantsOfTheSampleNeverCrashTheReader) {
  const Bytes original = test::encode_profile(test::rich_sample_profile());
  Mutator mutator(kSeed);
  std::map<std::string, int> kinds;
  int accepted = 0;
  for (int i = 0; i < kMutants; ++i) {
    Bytes bytes = original;
    const std::size_t mutations = 1 + mutator.below(4);
    for (std::size_t m = 0; m < mutations; ++m) mutator.mutate(bytes);
    if (mutator.coin()) test::reseal_checksums(bytes);

    try {
      decode_profile(bytes);
      ++accepted;
    } catch (const FormatError& e) {
      ++kinds[kind_of(e.what())];
    } catch (const std::exception& e) {
      ADD_FAILURE() << "mutant " << i << " (seed " << kSeed << "): " << typeid(e).name() << ": " << e.what();
    }
  }

  // The run must exercise more than the checksum: each of these layers refused some mutants.
  for (const char* layer :
       {"checksum mismatch", "truncated", "cannot fit", "undefined site", "undefined operation site",
        "has parent", "unparsed bytes", "unexpected bytes", "announces"})
    EXPECT_GT(kinds[layer], 0) << "no mutant reached the reader's \"" << layer << "\" check";
  for (const auto& [kind, count] : kinds) EXPECT_NE(kind.rfind("other: ", 0), 0u) << kind;
  // No timed assertion here: a mutant that made decoding loop or allocate without bound shows as
  // this test's ctest timeout, and the fuzzer (tests/fuzz) runs with a per-input time limit.
  RecordProperty("accepted_mutants", accepted);
}

}  // namespace
}  // namespace parperf::format
