// The spatial window of one thread: its last W word numbers, in a ring. The stride of an access is
// its smallest distance to any of them (DESIGN.md section 6). A plain loop over a small contiguous
// array, which the compiler vectorizes; W is 32 by default.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace parperf::locality {

class StrideWindow {
 public:
  static constexpr std::uint64_t kNoNeighbour = std::numeric_limits<std::uint64_t>::max();
  // A word no access is near (word numbers are addresses / word size, far below it): an entry for
  // an access the window skipped.
  static constexpr std::uint64_t kNowhere = std::numeric_limits<std::uint64_t>::max() / 2;

  explicit StrideWindow(std::uint32_t size) : words_(size == 0 ? 1 : size) {}

  // Smallest |word - w| over the window; kNoNeighbour while the window is empty.
  std::uint64_t nearest(std::uint64_t word) const {
    std::uint64_t best = kNoNeighbour;
    for (std::size_t i = 0; i < filled_; ++i) {
      const std::uint64_t w = words_[i];
      const std::uint64_t distance = word > w ? word - w : w - word;
      best = distance < best ? distance : best;
    }
    return best;
  }

  // `count` accesses the window did not see (sampled out) push its entries out as they would have.
  void skip(std::uint64_t count) {
    if (count >= words_.size()) {
      filled_ = 0;
      next_ = 0;
      return;
    }
    for (std::uint64_t i = 0; i < count; ++i) push(kNowhere);
  }

  void push(std::uint64_t word) {
    words_[next_] = word;
    if (++next_ == words_.size()) next_ = 0;
    if (filled_ < words_.size()) ++filled_;
  }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t next_ = 0;
  std::size_t filled_ = 0;
};

}  // namespace parperf::locality
