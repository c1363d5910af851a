// The locality engine's hash table of words: neighbouring words share cache lines of the table,
// clear() keeps the memory of a table about to be refilled, and a large table lives on memory of its
// own that starts on a huge page (table_memory.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

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

// Arrays of a power-of-two length are common: 2^20 doubles in two arrays, bench/locality's loop, are
// 2^21 words, which must fit a table of 2^22 slots (64 MiB), not grow to 128 MiB when a word the
// table holds is looked up again.
TEST(LocalityWordTable, AHalfFullTableGrowsOnlyWhenAWordIsAdded) {
  WordTable<std::uint32_t> table(10);
  for (std::uint64_t word = 0; word < 512; ++word) table.find_or_insert(word * 3);
  for (std::uint64_t word = 0; word < 512; ++word) ASSERT_FALSE(table.find_or_insert(word * 3).second);
  EXPECT_EQ(table.entries().size(), 1024u) << "512 words in 1024 slots: the table grew on a lookup";
  EXPECT_TRUE(table.find_or_insert(1).second);
  EXPECT_EQ(table.entries().size(), 2048u) << "the 513th word needs the next size";
  for (std::uint64_t word = 0; word < 512; ++word) ASSERT_FALSE(table.find_or_insert(word * 3).second);
}

// 400 000 words take 2^20 slots of 16 bytes (16 MiB): mapped memory, grown through every size from
// 1 Ki slots. Every word must keep its value through the growths, every other slot must be empty (the
// fresh memory is not cleared again), and the slots must begin on a 2 MiB boundary, the only place the
// kernel puts a huge page.
TEST(LocalityWordTable, ALargeTableKeepsEveryWordOnZeroedMemoryFromAHugePage) {
  WordTable<std::uint32_t> table;
  constexpr std::uint32_t kWords = 400000;
  auto word_of = [](std::uint32_t k) {
    return std::uint64_t{k} * 7919 + (std::uint64_t{k} % 3) * (1ull << 40);
  };
  for (std::uint32_t k = 0; k < kWords; ++k) table.find_or_insert(word_of(k)).first->value = k + 1;
  ASSERT_GE(table.entries().size() * sizeof(WordTable<std::uint32_t>::Entry), std::size_t{2} << 20);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(table.entries().data()) % (std::size_t{2} << 20), 0u)
      << "a table of " << table.entries().size() << " slots does not start on a huge page";
  for (std::uint32_t k = 0; k < kWords; ++k) {
    const auto [entry, inserted] = table.find_or_insert(word_of(k));
    ASSERT_FALSE(inserted) << "word " << word_of(k) << " was lost when the table grew";
    ASSERT_EQ(entry->value, k + 1) << "word " << word_of(k) << " has another word's value";
  }
  std::size_t occupied = 0;
  for (const auto& entry : table.entries()) {
    if (entry.occupied()) {
      ++occupied;
    } else {
      ASSERT_EQ(entry.value, 0u) << "an empty slot holds a value: the table's memory was not zero";
    }
  }
  EXPECT_EQ(occupied, std::size_t{kWords});
  EXPECT_EQ(table.size(), std::size_t{kWords});
}

}  // namespace
}  // namespace parperf::locality
