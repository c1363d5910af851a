// The spatial window of one thread: its last W word numbers, in a ring. The stride of an access is
// its smallest distance to any of them (DESIGN.md section 6). W is 32 by default; the scan is a
// plain loop over a small contiguous array, compiled twice (stride_window.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace parperf::locality {

class StrideWindow {
 public:
  // A word no access is near (word numbers are addresses / word size, far below it): an entry for
  // an access the window skipped.
  static constexpr std::uint64_t kNowhere = std::numeric_limits<std::uint64_t>::max() / 2;

  // The vector instructions the scan uses, the widest the CPU has.
  enum class Scan : std::uint8_t { kPortable, kSse42, kAvx2 };

  explicit StrideWindow(std::uint32_t size);

  // min(limit, smallest |word - w| over the window); `limit` while the window is empty. The
  // histogram lumps every stride from max_stride + 1 on together, so the scan only needs exact
  // distances up to a limit (at most 2^32), which lets it work modulo 2^64.
  std::uint64_t nearest(std::uint64_t word, std::uint64_t limit) const {
    switch (scan_) {
      case Scan::kAvx2:
        return nearest_avx2(word, limit);
      case Scan::kSse42:
        return nearest_sse42(word, limit);
      case Scan::kPortable:
        break;
    }
    return nearest_portable(word, limit);
  }

  // `count` accesses the window did not see (sampled out) push its entries out as they would have.
  void skip(std::uint64_t count) {
    if (count >= size_) {
      std::fill(words_.begin(), words_.end(), kEmpty);
      next_ = 0;
      return;
    }
    for (std::uint64_t i = 0; i < count; ++i) push(kNowhere);
  }

  void push(std::uint64_t word) {
    words_[next_] = word;
    if (++next_ == size_) next_ = 0;
  }

 private:
  // What empty entries hold: at least 2^62 - 128 from every word modulo 2^64 (words are below
  // 2^63 + 128), so never the nearest within a limit. With it the scan always covers the whole
  // array, whose length is even: a fixed count of whole SSE registers.
  static constexpr std::uint64_t kEmpty = std::uint64_t{3} << 62;

  // The scan for CPUs with AVX2 (64-bit vector compares on four words per instruction: the scan
  // was a sixth of a sampled run's analysis with SSE 4.2's two), with SSE 4.2 (two), and for the
  // others; the constructor picks one. All compute the same minimum.
  std::uint64_t nearest_avx2(std::uint64_t word, std::uint64_t limit) const;
  std::uint64_t nearest_sse42(std::uint64_t word, std::uint64_t limit) const;
  std::uint64_t nearest_portable(std::uint64_t word, std::uint64_t limit) const;

  std::vector<std::uint64_t> words_;  // size_ entries, then kEmpty padding to an even length
  std::size_t size_;                  // W
  std::size_t next_ = 0;
  Scan scan_;
};

}  // namespace parperf::locality
