// The uncertainty of scores from sampled bursts (analysis/locality/burst_uncertainty.hpp): the 95 %
// half width of the word-weighted mean of the bursts' scores, computed by hand for small cases.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "analysis/locality/burst_uncertainty.hpp"

namespace parperf::locality {
namespace {

TEST(BurstUncertainty, FewerThanTwoBurstsAreUnknown) {
  EXPECT_LT(burst_uncertainty({}).spatial_half_width, 0);
  const std::vector<BurstScore> one = {{0.5, 0.2, 1000}, {0.9, 0.9, 0}};  // an empty burst weighs nothing
  const auto u = burst_uncertainty(one);
  EXPECT_EQ(u.bursts, 1u);
  EXPECT_LT(u.spatial_half_width, 0);
  EXPECT_LT(u.temporal_half_width, 0);
}

TEST(BurstUncertainty, IdenticalBurstsAreCertain) {
  const std::vector<BurstScore> same(5, BurstScore{0.75, 0.1, 4096});
  const auto u = burst_uncertainty(same);
  EXPECT_EQ(u.bursts, 5u);
  EXPECT_DOUBLE_EQ(u.spatial_half_width, 0);
  EXPECT_DOUBLE_EQ(u.temporal_half_width, 0);
}

TEST(BurstUncertainty, EqualWeightsGiveTheStandardErrorOfTheMean) {
  // Scores 0, 1, 0, 1 of equal weight: mean 1/2, sample variance 1/3, standard error sqrt(1/12).
  const std::vector<BurstScore> bursts = {{0, 1, 10}, {1, 0, 10}, {0, 1, 10}, {1, 0, 10}};
  const auto u = burst_uncertainty(bursts);
  EXPECT_NEAR(u.spatial_half_width, 1.96 * std::sqrt(1.0 / 12), 1e-12);
  EXPECT_NEAR(u.temporal_half_width, 1.96 * std::sqrt(1.0 / 12), 1e-12);
}

TEST(BurstUncertainty, HeavierBurstsWeighMore) {
  // Weights 3 and 1, scores 0 and 1: mean 1/4; deviations 3 * (-1/4) and 1 * (3/4); spread
  // (9/16 + 9/16) * 2 / 1 = 9/4 over (sum w)^2 = 16: standard error 3/8.
  const std::vector<BurstScore> bursts = {{0, 0, 3}, {1, 1, 1}};
  EXPECT_NEAR(burst_uncertainty(bursts).spatial_half_width, 1.96 * 0.375, 1e-12);
}

}  // namespace
}  // namespace parperf::locality
