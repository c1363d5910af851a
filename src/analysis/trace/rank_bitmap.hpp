// Which items of a sequence are marked, and each marked item's number among them (its rank): a bit
// an item and the count of marked items before each 64 (a rank directory, as succinct data
// structures keep one), 0.19 bytes an item. What a dense array of numbers, 4 bytes an item, would
// hold for a sequence whose marked items are a few: the activity graph's nodes that edges lead into
// (ActivityGraph::in_edges), the events of a thread that became the graph builder's operations.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace parperf::analysis {

class RankBitmap {
 public:
  static constexpr std::uint32_t kUnmarked = std::numeric_limits<std::uint32_t>::max();

  // `items` items, none marked; at most 2^32 - 2 of them will be.
  void assign(std::uint64_t items) {
    items_ = items;
    words_.assign((items + 63) / 64, 0);
    before_.clear();
  }
  // Marks item i (one past size() grows it); rank and count_before answer only after index().
  void mark(std::uint64_t i) {
    if (i >= items_) {
      items_ = i + 1;
      words_.resize((items_ + 63) / 64, 0);
    }
    words_[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  // Counts the marked items, once every mark is made.
  void index() {
    before_.resize(words_.size() + 1);
    std::uint32_t marked = 0;
    for (std::size_t w = 0; w < words_.size(); ++w) {
      before_[w] = marked;
      marked += static_cast<std::uint32_t>(std::popcount(words_[w]));
    }
    before_[words_.size()] = marked;
  }

  std::uint64_t size() const { return items_; }
  std::uint32_t marked() const { return before_.empty() ? 0 : before_.back(); }
  bool is_marked(std::uint64_t i) const { return i < items_ && (words_[i / 64] >> (i % 64) & 1) != 0; }
  // The marked items before item i (i <= size()).
  std::uint32_t count_before(std::uint64_t i) const {
    if (i >= items_) return marked();
    const std::uint64_t word = words_[i / 64];
    return before_[i / 64] +
           static_cast<std::uint32_t>(std::popcount(word & ((std::uint64_t{1} << (i % 64)) - 1)));
  }
  // The number of item i among the marked ones, or kUnmarked if it is not marked (or past the end).
  std::uint32_t rank(std::uint64_t i) const { return is_marked(i) ? count_before(i) : kUnmarked; }
  // The marked item whose rank is r (< marked()): a search of the directory, then of one word.
  std::uint64_t select(std::uint32_t r) const {
    const auto w =
        static_cast<std::size_t>(std::upper_bound(before_.begin(), before_.end() - 1, r) - before_.begin()) -
        1;
    std::uint64_t word = words_[w];
    for (std::uint32_t skip = r - before_[w]; skip > 0; --skip) word &= word - 1;  // drop the lowest bits
    return w * 64 + static_cast<std::uint64_t>(std::countr_zero(word));
  }

  // What it holds, for the benchmarks' accounts.
  std::size_t capacity_bytes() const {
    return words_.capacity() * sizeof(words_[0]) + before_.capacity() * sizeof(before_[0]);
  }

  friend bool operator==(const RankBitmap&, const RankBitmap&) = default;

 private:
  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> before_;  // marked items before each word's first, then all of them
  std::uint64_t items_ = 0;
};

}  // namespace parperf::analysis
