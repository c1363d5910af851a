// The set of distinct words a program, a function or a thread touched, whose size is a footprint.
// Words are kept as 64-word chunks (512 bytes of the program's memory): a WordTable of chunk number
// -> a 64-bit mask of the chunk's words seen. Programs touch neighbouring words close in time, so
// a stream's 64 words share one 16-byte entry instead of 512 bytes of 8-byte slots, a cache line
// of the table per 8 words. Every burst of a sampled run inserts each word it touches first into
// the program's and the function's sets, and the analysis waited on those lines (bench/locality's
// saved trace: 2.25 -> 2.0 s of CPU with chunks). A word touched alone in its chunk costs 16 bytes
// instead of 8. Internal to the locality engine.
#pragma once

#include <cstdint>

#include "analysis/locality/word_table.hpp"

namespace parperf::locality {

class FootprintSet {
 public:
  // True if `word` was absent (and is now present).
  bool insert(std::uint64_t word) {
    std::uint64_t& mask = chunks_.find_or_insert(word >> kChunkBits).first->value;
    const std::uint64_t bit = std::uint64_t{1} << (word & kChunkMask);
    if ((mask & bit) != 0) return false;
    mask |= bit;
    ++size_;
    return true;
  }

  // Brings the entry of `word` towards the cache ahead of an insert (DeferredInserts).
  void prefetch(std::uint64_t word) const { chunks_.prefetch(word >> kChunkBits); }

  // The distinct words inserted.
  std::size_t size() const { return size_; }

 private:
  static constexpr unsigned kChunkBits = 6;  // 64 words: one bit each in the entry's mask
  static constexpr std::uint64_t kChunkMask = (std::uint64_t{1} << kChunkBits) - 1;

  WordTable<std::uint64_t> chunks_;
  std::size_t size_ = 0;
};

}  // namespace parperf::locality
