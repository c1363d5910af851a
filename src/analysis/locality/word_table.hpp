// An open-addressing hash table keyed by word number (linear probing, power-of-two capacity, at most
// half full). std::unordered_map allocates a node per word and chases a pointer per lookup; with
// millions of distinct words, this table's one probe into a flat array is what keeps the exact
// engine above 15 M accesses/s. Internal to the locality engine.
//
// The hash keeps neighbours together: the 8 words of an aligned 64-byte block go to 8 consecutive
// slots of a block of slots, and only the block number is hashed. Programs touch neighbouring words
// close in time (that is what spatial locality is), so a stream's 8 words share 2 cache lines of the
// table: one cache miss per 4 words instead of one per word; a random walk gets one block per word.
// Consecutive blocks are hashed far apart, each on a page of its own: the slots of a large table are
// on huge pages (table_memory.hpp), so that each block is not also a TLB miss.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>

#include "analysis/locality/table_memory.hpp"

namespace parperf::locality {

struct NoValue {};

template <typename Value>
class WordTable {
 public:
  struct Entry {
    std::uint64_t key_plus_one = 0;  // 0: empty slot (word numbers are < 2^63, so +1 cannot wrap)
    [[no_unique_address]] Value value{};
    bool occupied() const { return key_plus_one != 0; }
    std::uint64_t word() const { return key_plus_one - 1; }
  };

  explicit WordTable(unsigned log2_capacity = 10) { reset(log2_capacity); }

  // The entry of `word`, inserted with a default value if absent; `second` is true if inserted.
  // The pointer stays valid until the next insertion.
  std::pair<Entry*, bool> find_or_insert(std::uint64_t word) {
    const std::uint64_t key = word + 1;
    for (std::size_t slot = home(key);; slot = (slot + 1) & mask_) {
      Entry& entry = entries_[slot];
      if (entry.key_plus_one == key) return {&entry, false};
      if (entry.key_plus_one == 0) {
        // Grown only when a word is added, up to half full: a footprint of exactly 2^k words (arrays
        // of a power-of-two length) fits 2^(k+1) slots. Tested before every lookup, a table that
        // reached half full doubled at the next lookup of a word it held, to 4 slots a word.
        if (2 * (size_ + 1) > entries_.size()) [[unlikely]] {
          grow();
          return find_or_insert(word);  // the word's place in the larger table
        }
        entry.key_plus_one = key;
        ++size_;
        return {&entry, true};
      }
    }
  }

  // Brings the home slot of `word` towards the cache ahead of a find_or_insert: with millions of
  // words the table is far larger than the cache and each lookup is otherwise a memory round trip.
  void prefetch(std::uint64_t word) const { __builtin_prefetch(&entries_[home(word + 1)]); }

  // True if `word` was absent (and is now present).
  bool insert(std::uint64_t word) { return find_or_insert(word).second; }

  std::size_t size() const { return size_; }
  std::span<Entry> entries() { return entries_.slots(); }

  // Empties the table but keeps its capacity: a table refilled with about as many words (the next
  // burst of a sampled run) neither grows again, rehashing every word at each doubling, nor faults
  // its memory in anew.
  void clear() {
    std::ranges::fill(entries_.slots(), Entry{});
    size_ = 0;
  }

 private:
  static constexpr unsigned kBlockBits = 3;  // 8 words of 8 bytes: a 64-byte cache line of the program

  // Fibonacci hashing of the block: the top bits of block * 2^64/phi spread consecutive blocks over
  // the table; the word's place in its block is its place in the block of slots.
  std::size_t home(std::uint64_t key) const {
    const std::uint64_t word = key - 1;
    const std::uint64_t block = (word >> kBlockBits) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>((block >> (shift_ + kBlockBits)) << kBlockBits |
                                    (word & ((1u << kBlockBits) - 1)));
  }

  void reset(unsigned log2_capacity) {
    entries_ = TableMemory<Entry>(std::size_t{1} << log2_capacity);  // every slot empty
    mask_ = entries_.size() - 1;
    shift_ = 64 - log2_capacity;
    size_ = 0;
  }

  void grow() {
    TableMemory<Entry> old = std::move(entries_);
    reset(64 - shift_ + 1);
    for (const Entry& entry : old.slots()) {
      if (!entry.occupied()) continue;
      std::size_t slot = home(entry.key_plus_one);
      while (entries_[slot].occupied()) slot = (slot + 1) & mask_;
      entries_[slot] = entry;
      ++size_;
    }
  }

  TableMemory<Entry> entries_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

using WordSet = WordTable<NoValue>;

}  // namespace parperf::locality
