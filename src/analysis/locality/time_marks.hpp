// The set of time indices that are still some word's latest access, with rank queries: a bitmap
// (one bit per time index) plus a Fenwick tree of the bit counts of 512-bit blocks. For 2M time
// indices that is 256 KiB of bits and a 16 KiB tree, against 8 MiB for a Fenwick tree per index:
// the reuse-distance query stays in cache, which is what the exact engine's throughput rests on.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "analysis/locality/fenwick_tree.hpp"

namespace parperf::locality {

class TimeMarks {
 public:
  static constexpr std::size_t kWordsPerBlock = 8;  // 512 bits

  std::size_t capacity() const { return capacity_; }

  void set(std::size_t time) {
    bits_[time / 64] |= std::uint64_t{1} << (time % 64);
    block_counts_.add(time / (64 * kWordsPerBlock), 1);
  }

  void clear(std::size_t time) {
    bits_[time / 64] &= ~(std::uint64_t{1} << (time % 64));
    block_counts_.add(time / (64 * kWordsPerBlock), -1);
  }

  // Number of marks at time indices 0..time inclusive.
  std::uint64_t count_up_to(std::size_t time) const {
    const std::size_t word = time / 64;
    const std::size_t block = word / kWordsPerBlock;
    std::uint64_t count = block == 0 ? 0 : block_counts_.prefix_sum(block - 1);
    for (std::size_t w = block * kWordsPerBlock; w < word; ++w)
      count += static_cast<std::uint64_t>(std::popcount(bits_[w]));
    const std::uint64_t through_time = ~std::uint64_t{0} >> (63 - time % 64);
    return count + static_cast<std::uint64_t>(std::popcount(bits_[word] & through_time));
  }

  // Per 64-bit word of the bitmap, the marks before it: with it, rank() is O(1), so compaction can
  // renumber the live times in one pass over the hash table instead of bucketing them by time.
  std::vector<std::uint32_t> word_ranks() const {
    std::vector<std::uint32_t> ranks(bits_.size());
    std::uint32_t before = 0;
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      ranks[w] = before;
      before += static_cast<std::uint32_t>(std::popcount(bits_[w]));
    }
    return ranks;
  }

  // Marks before `time`, given word_ranks() of the current marks.
  std::uint64_t rank(const std::vector<std::uint32_t>& word_ranks, std::size_t time) const {
    const std::uint64_t below_time = (std::uint64_t{1} << (time % 64)) - 1;
    return word_ranks[time / 64] + static_cast<std::uint64_t>(std::popcount(bits_[time / 64] & below_time));
  }

  // Capacity at least `capacity`, with marks at 0..marks-1 only.
  void reset(std::size_t capacity, std::size_t marks) {
    const std::size_t bits_per_block = 64 * kWordsPerBlock;
    const std::size_t blocks = (capacity + bits_per_block - 1) / bits_per_block;
    capacity_ = blocks * bits_per_block;
    bits_.assign(blocks * kWordsPerBlock, 0);
    for (std::size_t w = 0; w < marks / 64; ++w) bits_[w] = ~std::uint64_t{0};
    if (marks % 64 != 0) bits_[marks / 64] = (std::uint64_t{1} << (marks % 64)) - 1;
    std::vector<std::int32_t> counts(blocks, 0);
    for (std::size_t b = 0; b < blocks; ++b)
      for (std::size_t w = b * kWordsPerBlock; w < (b + 1) * kWordsPerBlock; ++w)
        counts[b] += std::popcount(bits_[w]);
    block_counts_.reset(counts);
  }

 private:
  std::size_t capacity_ = 0;
  std::vector<std::uint64_t> bits_;
  FenwickTree block_counts_;
};

}  // namespace parperf::locality
