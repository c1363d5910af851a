// TimeMarks (the bitmap of latest-access times under a tree of prefix counts) against a plain
// vector of bools, through frontier jumps across words and groups, compactions and resets.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "analysis/locality/time_marks.hpp"

namespace parperf::locality {
namespace {

class NaiveMarks {
 public:
  void reset(std::size_t marks) { marks_.assign(marks, true); }
  void set(std::size_t time) {
    if (time >= marks_.size()) marks_.resize(time + 1, false);
    marks_[time] = true;
  }
  void clear(std::size_t time) { marks_[time] = false; }
  bool marked(std::size_t time) const { return time < marks_.size() && marks_[time]; }
  std::uint64_t count_up_to(std::size_t time) const {
    std::uint64_t count = 0;
    for (std::size_t t = 0; t <= time && t < marks_.size(); ++t) count += marks_[t] ? 1 : 0;
    return count;
  }

 private:
  std::vector<bool> marks_;
};

// Sets marks at increasing times, with gaps of up to `max_gap`, and clears random marked ones.
void expect_same_as_naive(std::size_t capacity, std::size_t initial_marks, std::size_t max_gap,
                          std::uint64_t seed) {
  TimeMarks marks;
  marks.reset(capacity, initial_marks);
  ASSERT_GE(marks.capacity(), capacity);
  ASSERT_EQ(marks.capacity() % TimeMarks::kCapacityQuantum, 0u);
  NaiveMarks naive;
  naive.reset(initial_marks);
  std::mt19937_64 random(seed);
  std::vector<std::size_t> live;
  for (std::size_t t = 0; t < initial_marks; ++t) live.push_back(t);
  std::size_t now = initial_marks;
  while (true) {
    now += random() % max_gap;  // a gap of 0 sets the next time
    if (now >= marks.capacity()) break;
    marks.set(now);
    naive.set(now);
    live.push_back(now);
    if (live.size() > 1 && random() % 3 != 0) {
      const std::size_t pick = random() % live.size();
      const std::size_t time = live[pick];
      live[pick] = live.back();
      live.pop_back();
      ASSERT_EQ(marks.count_up_to_and_clear(time), naive.count_up_to(time)) << "clear at " << time;
      naive.clear(time);
    }
    const std::size_t probe = random() % (now + 1);
    ASSERT_EQ(marks.count_up_to(probe), naive.count_up_to(probe)) << "query at " << probe << ", now " << now;
    ++now;
  }
  // Ranks for compaction: marks strictly before each time.
  const std::vector<std::uint32_t> ranks = marks.word_ranks();
  std::uint64_t before = 0;
  for (std::size_t t = 0; t < marks.capacity(); ++t) {
    ASSERT_EQ(marks.rank(ranks, t), before) << "rank at " << t;
    before += naive.marked(t) ? 1 : 0;
  }
}

TEST(LocalityTimeMarks, EqualsNaiveBitmapFromEmpty) {
  for (std::uint64_t seed : {1, 2, 3}) expect_same_as_naive(1 << 13, 0, 3, seed);
}

TEST(LocalityTimeMarks, EqualsNaiveBitmapWithGapsAcrossWordsAndGroups) {
  // Gaps of up to 2000 time indices skip whole 64-bit words and groups of them at every level.
  for (std::uint64_t seed : {4, 5}) expect_same_as_naive(1 << 18, 0, 2000, seed);
}

TEST(LocalityTimeMarks, EqualsNaiveBitmapAfterResetWithMarks) {
  // The marks a compaction leaves (0..k-1), ending inside a word, on a word boundary, and empty.
  for (std::size_t initial : {1000, 1024, 5000, 1})
    expect_same_as_naive(2 * initial + 512, initial, 4, 6 + initial);
}

TEST(LocalityTimeMarks, CapacityIsRoundedUpTo512) {
  TimeMarks marks;
  marks.reset(1, 0);
  EXPECT_EQ(marks.capacity(), 512u);
  marks.reset(513, 0);
  EXPECT_EQ(marks.capacity(), 1024u);
}

}  // namespace
}  // namespace parperf::locality
