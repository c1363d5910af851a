// StrideWindow::nearest against the definition (smallest |word - w| over the last W words, at most
// the limit), with words anywhere in their range: near 0, 2^63 and the top, where the scan's
// arithmetic modulo 2^64 must still give the true distance.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>

#include "analysis/locality/stride_window.hpp"

namespace parperf::locality {
namespace {

std::uint64_t naive_nearest(const std::deque<std::uint64_t>& window, std::uint64_t word,
                            std::uint64_t limit) {
  std::uint64_t best = limit;
  for (const std::uint64_t w : window) {
    const std::uint64_t distance = word > w ? word - w : w - word;
    if (distance < best) best = distance;
  }
  return best;
}

// Word numbers go up to (2^64 - 1) / 2 + 127: 2-byte words of a 255-byte access at the top.
constexpr std::uint64_t kTopWord = (~std::uint64_t{0} >> 1) + 127;

std::uint64_t pick_word(std::mt19937_64& random) {
  const std::uint64_t offset = random() % 100;
  switch (random() % 5) {
    case 0:
      return offset;
    case 1:
      return (std::uint64_t{1} << 62) + offset - 50;
    case 2:
      return (std::uint64_t{1} << 63) + offset - 50;
    case 3:
      return kTopWord - offset;
    default:
      return StrideWindow::kNowhere + offset - 50;
  }
}

TEST(LocalityStrideWindow, NearestEqualsTheDefinitionAcrossTheWordRange) {
  for (const std::uint32_t size : {1u, 5u, 32u}) {
    for (const std::uint64_t limit : {std::uint64_t{1}, std::uint64_t{33}, (std::uint64_t{1} << 32) + 1}) {
      StrideWindow window(size);
      std::deque<std::uint64_t> naive;
      std::mt19937_64 random(size * 1000 + limit);
      for (int i = 0; i < 5000; ++i) {
        const std::uint64_t word = pick_word(random);
        ASSERT_EQ(window.nearest(word, limit), naive_nearest(naive, word, limit))
            << "word " << word << ", window " << size << ", limit " << limit;
        window.push(word);
        naive.push_back(word);
        if (naive.size() > size) naive.pop_front();
      }
    }
  }
}

TEST(LocalityStrideWindow, EmptyWindowGivesTheLimit) {
  StrideWindow window(4);
  EXPECT_EQ(window.nearest(0, 33), 33u);
  EXPECT_EQ(window.nearest(kTopWord, 33), 33u);
  window.push(10);
  EXPECT_EQ(window.nearest(12, 33), 2u);
  window.skip(4);  // as many as the window holds: empty again
  EXPECT_EQ(window.nearest(12, 33), 33u);
}

TEST(LocalityStrideWindow, SkippedAccessesAgeTheWindow) {
  StrideWindow window(3);
  window.push(100);
  window.push(200);
  window.skip(1);  // 100 and 200 still in, with one entry for the skipped access
  EXPECT_EQ(window.nearest(101, 33), 1u);
  window.push(300);  // pushes 100 out
  EXPECT_EQ(window.nearest(101, 33), 33u);
  EXPECT_EQ(window.nearest(201, 33), 1u);
}

}  // namespace
}  // namespace parperf::locality
