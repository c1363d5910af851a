// The exact reuse-distance tracker against a naive LRU stack, with and without compaction.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "analysis/locality/reuse_distance.hpp"

namespace parperf::locality {
namespace {

// The textbook definition: the depth of the word in a most-recently-used-first stack.
class NaiveLruStack {
 public:
  std::uint64_t access(std::uint64_t word) {
    const auto it = std::find(stack_.begin(), stack_.end(), word);
    std::uint64_t distance = ReuseDistanceTracker::kCold;
    if (it != stack_.end()) {
      distance = static_cast<std::uint64_t>(it - stack_.begin());
      stack_.erase(it);
    }
    stack_.insert(stack_.begin(), word);
    return distance;
  }

 private:
  std::vector<std::uint64_t> stack_;
};

void expect_same_distances_as_lru(std::size_t min_capacity, std::uint64_t seed, std::uint64_t words,
                                  std::size_t count) {
  ReuseDistanceTracker tracker(min_capacity);
  NaiveLruStack lru;
  std::mt19937_64 random(seed);
  // A mix of a hot set and the whole range, so that both short and long distances occur.
  std::uniform_int_distribution<std::uint64_t> any(0, words - 1);
  std::uniform_int_distribution<std::uint64_t> hot(0, 7);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t word = (i % 3 == 0) ? hot(random) : any(random);
    const auto expected = lru.access(word);
    const auto actual = tracker.access(word, 0).distance;
    ASSERT_EQ(actual, expected) << "access " << i << " to word " << word << " (seed " << seed << ")";
  }
}

TEST(LocalityReuseDistance, EqualsNaiveLruStackOnRandomStreams) {
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) expect_same_distances_as_lru(1 << 16, seed, 500, 5000);
}

TEST(LocalityReuseDistance, EqualsNaiveLruStackAcrossCompactions) {
  // The smallest capacity (one 512-index block) compacts every few hundred accesses.
  for (std::uint64_t seed : {11, 12, 13}) expect_same_distances_as_lru(8, seed, 300, 5000);
}

TEST(LocalityReuseDistance, CompactionKeepsMemoryProportionalToDistinctWords) {
  ReuseDistanceTracker tracker(16);  // rounded up to one 512-index block
  for (int round = 0; round < 1000; ++round)
    for (std::uint64_t w = 0; w < 10; ++w) {
      const auto distance = tracker.access(w, 0).distance;
      if (round > 0) {
        ASSERT_EQ(distance, 9u);
      }
    }
  EXPECT_GT(tracker.compactions(), 10u) << "10 000 accesses in a 512-index tree (the smallest) must compact";
  EXPECT_EQ(tracker.distinct_words(), 10u);
}

// A sampled run's bursts reuse one tracker: after clear() nothing of the previous burst is reused.
TEST(LocalityReuseDistance, ClearForgetsEveryAccess) {
  ReuseDistanceTracker tracker(8);
  for (int round = 0; round < 3; ++round)
    for (std::uint64_t w = 0; w < 1000; ++w) tracker.access(w, 1);
  tracker.clear();
  EXPECT_EQ(tracker.distinct_words(), 0u);
  NaiveLruStack lru;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const std::uint64_t word = (i * 7919) % 700;
    ASSERT_EQ(tracker.access(word, 2).distance, lru.access(word))
        << "access " << i << " to word " << word << " after clear(): a word of the previous burst was kept";
  }
}

// A compaction walks every slot of the table, and clear() keeps a large table for the next burst:
// the times between compactions must grow with the table, or a burst's first accesses, over few
// words, walk the whole table again and again (a seventh of a sampled run's analysis).
TEST(LocalityReuseDistance, AClearedLargeTableIsNotWalkedOverAndOver) {
  ReuseDistanceTracker tracker(8);
  for (std::uint64_t w = 0; w < 100000; ++w) tracker.access(w, 1);
  tracker.clear();
  for (int round = 0; round < 1000; ++round)
    for (std::uint64_t w = 0; w < 10; ++w) tracker.access(w, 1);
  EXPECT_EQ(tracker.compactions(), 0u) << "10 000 accesses to 10 words after clear() compacted "
                                       << tracker.compactions() << " times a table sized for 100 000 words";
}

TEST(LocalityReuseDistance, ReportsThePreviousFunction) {
  ReuseDistanceTracker tracker;
  EXPECT_EQ(tracker.access(5, 1).distance, ReuseDistanceTracker::kCold);
  EXPECT_EQ(tracker.access(5, 2).previous_function, 1u);
  EXPECT_EQ(tracker.access(5, 3).previous_function, 2u);
}

}  // namespace
}  // namespace parperf::locality
