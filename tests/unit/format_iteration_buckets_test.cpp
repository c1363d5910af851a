// The bucket convention of iteration times (format/iteration_buckets.hpp), which the runtime counts
// into and the analysis reads percentiles from: its edges, and the merging of two distributions.
#include <gtest/gtest.h>

#include <cstdint>

#include "format/iteration_buckets.hpp"

namespace parperf::format {
namespace {

TEST(IterationBuckets, TimesBelowAMicrosecondShareTheFirstBucket) {
  EXPECT_EQ(iteration_bucket(0), 0u);
  EXPECT_EQ(iteration_bucket(1), 0u);
  EXPECT_EQ(iteration_bucket(1023), 0u) << "2^10 ns is where the half-octaves begin";
  EXPECT_EQ(iteration_bucket(1024), 1u);
}

TEST(IterationBuckets, EachPowerOfTwoIsSplitAtOneAndAHalfTimesIt) {
  EXPECT_EQ(iteration_bucket(1535), 1u);
  EXPECT_EQ(iteration_bucket(1536), 2u) << "1.5 x 2^10";
  EXPECT_EQ(iteration_bucket(2047), 2u);
  EXPECT_EQ(iteration_bucket(2048), 3u);
  EXPECT_EQ(iteration_bucket(1'000'000), 20u) << "1 ms lies in [2^19 x 1.5, 2^20) ns";
  EXPECT_EQ(iteration_bucket(20'000'000), 29u) << "20 ms lies in [2^24, 2^24 x 1.5) ns";
}

TEST(IterationBuckets, TimesFromTwoToTheThirtyThreeNanosecondsShareTheLastBucket) {
  EXPECT_EQ(iteration_bucket((std::uint64_t{1} << 33) - 1), kIterationBuckets - 2);
  EXPECT_EQ(iteration_bucket(std::uint64_t{1} << 33), kIterationBuckets - 1);
  EXPECT_EQ(iteration_bucket(~std::uint64_t{0}), kIterationBuckets - 1);
}

TEST(IterationBuckets, EveryBucketHoldsExactlyTheTimesBetweenItsEdges) {
  EXPECT_EQ(iteration_bucket_lower_ns(0), 0u);
  EXPECT_EQ(iteration_bucket_upper_ns(kIterationBuckets - 1), 0u) << "the last bucket has no upper edge";
  for (std::uint32_t b = 0; b < kIterationBuckets; ++b) {
    EXPECT_EQ(iteration_bucket(iteration_bucket_lower_ns(b)), b) << "lower edge of bucket " << b;
    if (b + 1 < kIterationBuckets) {
      EXPECT_EQ(iteration_bucket_upper_ns(b), iteration_bucket_lower_ns(b + 1)) << "buckets leave no gap";
      EXPECT_EQ(iteration_bucket(iteration_bucket_upper_ns(b) - 1), b) << "last time of bucket " << b;
    }
    if (b > 0) {  // at most 1.5 times as wide as its lower edge
      EXPECT_LE(iteration_bucket_upper_ns(b == kIterationBuckets - 1 ? b - 1 : b),
                2 * iteration_bucket_lower_ns(b == kIterationBuckets - 1 ? b - 1 : b));
    }
  }
}

TEST(IterationBuckets, MergingAddsTheCountsAndCarriesTheSumOfSquares) {
  IterationHistogram a;
  a.sum_squares_low = ~std::uint64_t{0} - 1;
  a.buckets[3] = 2;
  IterationHistogram b;
  b.sum_squares_high = 5;
  b.sum_squares_low = 3;
  b.buckets[3] = 1;
  b.buckets[47] = 4;
  a.add(b);
  EXPECT_EQ(a.sum_squares_high, 6u) << "(2^64 - 2) + 3 carries one into the high half";
  EXPECT_EQ(a.sum_squares_low, 1u);
  EXPECT_EQ(a.buckets[3], 3u);
  EXPECT_EQ(a.buckets[47], 4u);
  EXPECT_EQ(a.count(), 7u);
  EXPECT_DOUBLE_EQ(static_cast<double>(a.sum_squares()), 6.0 * 18446744073709551616.0 + 1.0);
}

}  // namespace
}  // namespace parperf::format
