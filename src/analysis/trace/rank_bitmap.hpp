// Which items of a sequence are marked, and each marked item's number among them (its rank): a bit
// an item, and with each 32 bits the count of marked items before them (a rank directory, as succinct
// data structures keep one), 0.25 bytes an item. What a dense array of numbers, 4 bytes an item,
// would hold for a sequence whose marked items are a few: the activity graph's nodes that edges lead
// into (ActivityGraph::in_edges), the events of a thread that became the graph builder's operations.
// An item's bits and its count share 8 bytes: a rank is one load, as an array's number is (the graph's
// passes look one up at every node they visit, in an order that jumps between locations).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace parperf::analysis {

class RankBitmap {
  // The set bits of a word, inline: std::popcount is a call into libgcc on the baseline x86-64 that
  // Debian builds for (no POPCNT instruction), once for every node a replay visits.
  static std::uint32_t set_bits(std::uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
  }

 public:
  static constexpr std::uint32_t kUnmarked = std::numeric_limits<std::uint32_t>::max();

  // `items` items, none marked; at most 2^32 - 2 of them will be.
  void assign(std::uint64_t items) {
    items_ = items;
    blocks_.assign((items + 31) / 32, Block{});
    marked_ = 0;
  }
  // Marks item i (one past size() grows it); rank and count_before answer only after index().
  void mark(std::uint64_t i) {
    if (i >= items_) {
      items_ = i + 1;
      blocks_.resize((items_ + 31) / 32, Block{});
    }
    blocks_[i / 32].bits |= std::uint32_t{1} << (i % 32);
  }
  // Counts the marked items, once every mark is made.
  void index() {
    std::uint32_t marked = 0;
    for (Block& b : blocks_) {
      b.before = marked;
      marked += set_bits(b.bits);
    }
    marked_ = marked;
  }

  std::uint64_t size() const { return items_; }
  std::uint32_t marked() const { return marked_; }
  bool is_marked(std::uint64_t i) const { return i < items_ && (blocks_[i / 32].bits >> (i % 32) & 1) != 0; }
  // The marked items before item i (i <= size()).
  std::uint32_t count_before(std::uint64_t i) const {
    if (i >= items_) return marked_;
    const Block b = blocks_[i / 32];
    return b.before + set_bits(b.bits & ((std::uint32_t{1} << (i % 32)) - 1));
  }
  // The number of item i among the marked ones, or kUnmarked if it is not marked (or past the end).
  std::uint32_t rank(std::uint64_t i) const {
    if (i >= items_) return kUnmarked;
    const Block b = blocks_[i / 32];
    const std::uint32_t bit = std::uint32_t{1} << (i % 32);
    return b.bits & bit ? b.before + set_bits(b.bits & (bit - 1)) : kUnmarked;
  }
  // The marked item whose rank is r (< marked()): a search of the blocks, then of one block's bits.
  std::uint64_t select(std::uint32_t r) const {
    const auto after = std::upper_bound(blocks_.begin(), blocks_.end(), r,
                                        [](std::uint32_t v, const Block& b) { return v < b.before; });
    const auto w = static_cast<std::size_t>(after - blocks_.begin()) - 1;
    std::uint32_t bits = blocks_[w].bits;
    for (std::uint32_t skip = r - blocks_[w].before; skip > 0; --skip) bits &= bits - 1;  // drop the lowest
    return w * 32 + static_cast<std::uint64_t>(std::countr_zero(bits));
  }

  // Calls f(item, rank) for each marked item, in order.
  template <class F>
  void for_each_marked(F f) const {
    for (std::size_t w = 0; w < blocks_.size(); ++w) {
      std::uint32_t rank = blocks_[w].before;
      for (std::uint32_t bits = blocks_[w].bits; bits != 0; bits &= bits - 1)
        f(w * 32 + static_cast<std::uint64_t>(std::countr_zero(bits)), rank++);
    }
  }

  // What it holds, for the benchmarks' accounts.
  std::size_t capacity_bytes() const { return blocks_.capacity() * sizeof(Block); }

  friend bool operator==(const RankBitmap&, const RankBitmap&) = default;

 private:
  struct Block {
    std::uint32_t bits = 0;
    std::uint32_t before = 0;  // marked items before the block's first
    friend bool operator==(const Block&, const Block&) = default;
  };
  std::vector<Block> blocks_;
  std::uint64_t items_ = 0;
  std::uint32_t marked_ = 0;
};

}  // namespace parperf::analysis
