// The locality engine's hash table of words: neighbouring words share cache lines of the table, and
// clear() keeps the memory of a table about to be refilled.
#include <gtest/gtest.h>

#include <cstdint>

#include "analysis/locality/word_table.hpp"

namespace parperf::locality {
namespace {

// A stream touches the 8 words of a 64-byte block one after the other: their slots must be
// consecutive (2 cache lines of the table, 16-byte entries), not 8 random places in a table of tens
// of MiB, which made every recorded access of a sampled run a cache and TLB miss.
TEST(LocalityWordTable, TheWordsOfOneBlockTakeConsecutiveSlots) {
  WordTable<std::uint32_t> table(16);
  for (std::uint64_t block : {0ull, 1ull, 12345ull, (1ull << 40) + 3}) {
    const auto* first = table.find_or_insert(block * 8).first;
    for (std::uint64_t k = 1; k < 8; ++k) {
      const auto* entry = table.find_or_insert(block * 8 + k).first;
      EXPECT_EQ(entry - first, static_cast<std::ptrdiff_t>(k))
          << "word " << k << " of block " << block << " is " << (entry - first)
          << " slots from the block's first word: a stream's lookups would be scattered over the table";
    }
  }
}

TEST(LocalityWordTable, ClearForgetsTheWordsAndKeepsTheCapacity) {
  WordSet set;
  for (std::uint64_t word = 0; word < 100000; word += 3) set.insert(word);
  const std::size_t capacity = set.entries().size();
  set.clear();
  EXPECT_EQ(set.size(), 0u);
  EXPECT_EQ(set.entries().size(), capacity) << "the next burst would grow the table again from nothing";
  for (std::uint64_t word = 0; word < 100000; word += 3) ASSERT_TRUE(set.insert(word)) << word;
  EXPECT_EQ(set.entries().size(), capacity);
}

}  // namespace
}  // namespace parperf::locality
