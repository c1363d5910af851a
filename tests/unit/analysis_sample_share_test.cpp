// The uncertainty of a sampled share: Wilson's 95 % score interval, against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/sample_share.hpp"

namespace parperf::analysis {
namespace {

TEST(SampleShare, HalfOfAHundredSamplesIsFortyToSixtyPercent) {
  const ShareInterval s = share_interval(50, 100);
  EXPECT_DOUBLE_EQ(s.share, 0.5);
  EXPECT_NEAR(s.low, 0.4038, 1e-4);
  EXPECT_NEAR(s.high, 0.5962, 1e-4);
}

TEST(SampleShare, NoneOfTenSamplesStillAllowsAboutAQuarterAndStaysInsideZeroToOne) {
  const ShareInterval none = share_interval(0, 10);
  EXPECT_DOUBLE_EQ(none.low, 0);
  EXPECT_NEAR(none.high, 0.2775, 1e-4) << "10 samples cannot rule out a function of a quarter of the time";
  const ShareInterval all = share_interval(10, 10);
  EXPECT_NEAR(all.low, 0.7225, 1e-4);
  EXPECT_DOUBLE_EQ(all.high, 1);
  EXPECT_DOUBLE_EQ(share_interval(0, 0).high, 0) << "no samples, no share";
  for (std::uint64_t n = 1; n < 2000; n += 7) {  // the share always inside, also at 0 and 1 (rounding)
    const ShareInterval zero = share_interval(0, n), one = share_interval(n, n);
    EXPECT_LE(zero.low, zero.share) << n;
    EXPECT_GE(one.high, one.share) << n;
  }
}

TEST(SampleShare, TheIntervalNarrowsAsTheSquareRootOfTheSamples) {
  const double hundred = share_interval(75, 100).half_width();
  const double ten_thousand = share_interval(7500, 10000).half_width();
  EXPECT_NEAR(hundred / ten_thousand, 10, 0.5) << "100 times the samples, a tenth of the uncertainty";
  EXPECT_NEAR(ten_thousand, 1.96 * std::sqrt(0.75 * 0.25 / 10000), 1e-4) << "the normal limit";
}

TEST(SampleShare, SharesAreToldApartOnlyWhenTheirIntervalsDoNotOverlap) {
  // The case: 365 samples, 75 % against 25 %; and two functions of 100 and 95 of 300.
  EXPECT_TRUE(tells_apart(share_interval(274, 365), share_interval(91, 365)));
  EXPECT_FALSE(tells_apart(share_interval(100, 300), share_interval(95, 300)));
}

}  // namespace
}  // namespace parperf::analysis
