// The locality engine's footprint sets: 64-word chunks with a bit per word must count exactly the
// distinct words, as a plain set of words does, whatever the words' places in their chunks.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_set>
#include <vector>

#include "analysis/locality/footprint_set.hpp"

namespace parperf::locality {
namespace {

// Inserts `words` into a FootprintSet and into a std::unordered_set, and expects the same answer to
// every insertion and the same size.
void expect_same_as_a_plain_set(const std::vector<std::uint64_t>& words, const char* stream) {
  FootprintSet footprint;
  std::unordered_set<std::uint64_t> plain;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool expected = plain.insert(words[i]).second;
    ASSERT_EQ(footprint.insert(words[i]), expected)
        << stream << ": access " << i << " to word " << words[i] << " is "
        << (expected ? "its first, but the footprint already had the word"
                     : "a repeat, but the footprint counted the word again");
  }
  EXPECT_EQ(footprint.size(), plain.size())
      << stream << ": footprint " << footprint.size() << " words, the stream touched " << plain.size();
}

TEST(LocalityFootprintSet, CountsTheDistinctWordsOfAStreamTwice) {
  std::vector<std::uint64_t> words;
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint64_t word = 1000; word < 1000 + 100000; ++word) words.push_back(word);
  expect_same_as_a_plain_set(words, "two sweeps over 100000 words");
}

// Every place in a chunk (0..63) and every chunk boundary: a mask of 32 bits, or a chunk of 32
// words, would merge or drop words here.
TEST(LocalityFootprintSet, CountsEveryPlaceInAChunkApart) {
  std::vector<std::uint64_t> words;
  for (std::uint64_t stride : {1u, 31u, 32u, 63u, 64u, 65u, 4096u})
    for (std::uint64_t k = 0; k < 5000; ++k) words.push_back(k * stride);
  expect_same_as_a_plain_set(words, "strides 1 to 4096 words from word 0");
}

TEST(LocalityFootprintSet, CountsRandomWordsUpToTheLargestWordNumber) {
  std::mt19937_64 random(29);
  std::vector<std::uint64_t> words;
  // Word numbers are addresses / 2 at most: below 2^63.
  std::uniform_int_distribution<std::uint64_t> any((std::uint64_t{1} << 63) - 4096,
                                                   (std::uint64_t{1} << 63) - 1);
  std::uniform_int_distribution<std::uint64_t> near(0, 20000);
  for (int i = 0; i < 200000; ++i) words.push_back(i % 2 == 0 ? any(random) : near(random));
  expect_same_as_a_plain_set(words, "random words near 0 and near 2^63");
}

}  // namespace
}  // namespace parperf::locality
