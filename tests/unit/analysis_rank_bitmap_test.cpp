// RankBitmap (analysis/trace/rank_bitmap.hpp): the marked items of a sequence and each one's number
// among them, checked against a plain array of those numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "analysis/trace/rank_bitmap.hpp"

namespace parperf::analysis {
namespace {

// Marks, in a random order, a random share of `items` items (clustered, empty and full words among
// them) and checks every answer against the plain numbering.
void check_against_an_array(std::uint64_t items, double share, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::bernoulli_distribution marked_one(share);
  std::vector<bool> marked(items);
  for (std::uint64_t i = 0; i < items; ++i) marked[i] = marked_one(random) || (i / 64 == 3 && items > 256);
  std::vector<std::uint64_t> order(items);
  for (std::uint64_t i = 0; i < items; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), random);
  RankBitmap bitmap;
  bitmap.assign(items);
  for (const std::uint64_t i : order)
    if (marked[i]) bitmap.mark(i);
  bitmap.index();

  std::uint32_t before = 0;
  std::vector<std::uint64_t> marked_items;
  for (std::uint64_t i = 0; i < items; ++i) {
    ASSERT_EQ(bitmap.count_before(i), before) << "item " << i << " of " << items;
    ASSERT_EQ(bitmap.is_marked(i), marked[i]) << "item " << i;
    ASSERT_EQ(bitmap.rank(i), marked[i] ? before : RankBitmap::kUnmarked) << "item " << i;
    if (marked[i]) {
      marked_items.push_back(i);
      ++before;
    }
  }
  EXPECT_EQ(bitmap.marked(), before);
  EXPECT_EQ(bitmap.count_before(items), before) << "past the last item: all of them";
  EXPECT_EQ(bitmap.rank(items), RankBitmap::kUnmarked);
  for (std::uint32_t r = 0; r < marked_items.size(); ++r)
    ASSERT_EQ(bitmap.select(r), marked_items[r]) << "the marked item number " << r;
}

TEST(RankBitmap, NumbersTheMarkedItemsAsAnArrayWouldAcrossWords) {
  for (const std::uint64_t items : {1ull, 63ull, 64ull, 65ull, 1000ull, 4096ull, 100'003ull})
    for (const double share : {0.0, 0.02, 0.5, 1.0}) check_against_an_array(items, share, 7);
}

TEST(RankBitmap, MarkingPastTheEndGrowsItAndTheRestStaysUnmarked) {
  RankBitmap bitmap;
  bitmap.assign(10);
  bitmap.mark(3);
  bitmap.mark(200);  // more events than counted: still numbered in order
  bitmap.index();
  EXPECT_EQ(bitmap.size(), 201u);
  EXPECT_EQ(bitmap.rank(3), 0u);
  EXPECT_EQ(bitmap.rank(200), 1u);
  EXPECT_EQ(bitmap.rank(100), RankBitmap::kUnmarked);
  EXPECT_EQ(bitmap.select(1), 200u);
}

TEST(RankBitmap, AnEmptyOneHasNothingMarked) {
  RankBitmap bitmap;
  bitmap.index();
  EXPECT_EQ(bitmap.marked(), 0u);
  EXPECT_EQ(bitmap.rank(0), RankBitmap::kUnmarked);
  EXPECT_EQ(bitmap.count_before(5), 0u);
}

}  // namespace
}  // namespace parperf::analysis
