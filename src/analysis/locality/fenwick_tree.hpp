// A Fenwick (binary indexed) tree of counts over positions 0..capacity-1: point update and prefix
// sum in O(log capacity). TimeMarks keeps one per block of 512 time indices. 32-bit counts halve
// the cache footprint.
#pragma once

#include <cstdint>
#include <vector>

namespace parperf::locality {

class FenwickTree {
 public:
  std::size_t capacity() const { return tree_.empty() ? 0 : tree_.size() - 1; }

  void add(std::size_t position, std::int32_t delta) {
    for (std::size_t i = position + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
  }

  // Sum over positions 0..position inclusive.
  std::uint64_t prefix_sum(std::size_t position) const {
    std::int64_t sum = 0;
    for (std::size_t i = position + 1; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return static_cast<std::uint64_t>(sum);
  }

  // Capacity counts.size(), with these counts, built in O(n).
  void reset(const std::vector<std::int32_t>& counts) {
    const std::size_t capacity = counts.size();
    tree_.assign(capacity + 1, 0);
    for (std::size_t i = 1; i <= capacity; ++i) tree_[i] = counts[i - 1];
    for (std::size_t i = 1; i <= capacity; ++i) {
      const std::size_t parent = i + (i & (~i + 1));
      if (parent <= capacity) tree_[parent] += tree_[i];
    }
  }

 private:
  std::vector<std::int32_t> tree_;  // 1-based; tree_[0] unused
};

}  // namespace parperf::locality
