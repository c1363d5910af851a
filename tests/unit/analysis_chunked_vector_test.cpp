// ChunkedVector (analysis/trace/chunked_vector.hpp): a sequence in fixed chunks, read as one.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "analysis/trace/chunked_vector.hpp"

namespace parperf::analysis {
namespace {

// 4 KiB elements: 16 to a 64 KiB chunk, so a few hundred cross many chunk boundaries.
struct Large {
  std::uint64_t id = 0;
  std::uint8_t padding[4088] = {};
};

TEST(ChunkedVector, HoldsWhatWasPushedInOrderAcrossItsChunks) {
  ChunkedVector<Large> chunked;
  EXPECT_TRUE(chunked.empty());
  constexpr std::uint64_t kCount = 16 * 20 + 7;  // 20 full chunks and part of another
  for (std::uint64_t i = 0; i < kCount; ++i) chunked.push_back(Large{i * 3, {}});
  ASSERT_EQ(chunked.size(), kCount);
  for (std::uint64_t i = 0; i < kCount; ++i) ASSERT_EQ(chunked[i].id, i * 3) << "element " << i;
  std::uint64_t seen = 0;
  for (const Large& l : chunked) {
    ASSERT_EQ(l.id, seen * 3) << "iterated out of order at " << seen;
    ++seen;
  }
  EXPECT_EQ(seen, kCount) << "iteration stops at the last element, not at a chunk's end";
  EXPECT_EQ(chunked.back().id, (kCount - 1) * 3);
}

TEST(ChunkedVector, ElementsChangedThroughIterationStayChangedAndThoseOfFullChunksNeverMoveAsItGrows) {
  ChunkedVector<std::uint64_t> chunked = {1, 2, 3};
  constexpr std::uint64_t kPerChunk = (64u << 10) / sizeof(std::uint64_t);
  for (std::uint64_t i = 3; i < kPerChunk; ++i) chunked.push_back(i);  // the first chunk full
  const std::uint64_t* first = &chunked[0];
  for (std::uint64_t i = kPerChunk; i < 100'000; ++i) chunked.push_back(i - kPerChunk);
  EXPECT_EQ(first, &chunked[0]) << "growing moved what a full chunk held";
  for (std::uint64_t& v : chunked) v += 1;
  EXPECT_EQ(chunked[0], 2u);
  EXPECT_EQ(chunked[99'999], 99'999u - kPerChunk + 1);
  ChunkedVector<std::uint64_t> same = chunked;
  EXPECT_TRUE(same == chunked);
  same[50'000] = 0;
  EXPECT_FALSE(same == chunked);
}

TEST(ChunkedVector, AShortSequenceHoldsAboutWhatItHoldsAndALongOneAtMostAChunkMore) {
  // A run's clock repair keeps one such sequence for each of its locations (repair_anchors.hpp): a
  // location with a few moved nodes must not hold a whole chunk.
  ChunkedVector<double> few;
  for (int i = 0; i < 3; ++i) few.push_back(i);
  EXPECT_LE(few.capacity_bytes(), 4 * sizeof(double)) << "3 elements took a chunk's room";
  ChunkedVector<double> many;
  constexpr std::size_t kCount = 300'000, kChunk = 64u << 10;
  for (std::size_t i = 0; i < kCount; ++i) many.push_back(static_cast<double>(i));
  EXPECT_GE(many.capacity_bytes(), kCount * sizeof(double));
  EXPECT_LE(many.capacity_bytes(), kCount * sizeof(double) + kChunk) << "more than its last chunk's slack";
}

}  // namespace
}  // namespace parperf::analysis
