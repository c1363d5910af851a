// SHARDS sampling: TL of the sampled engine within 0.01 of the exact one.
#include <gtest/gtest.h>

#include "analysis/locality/locality_analyzer.hpp"
#include "locality_streams.hpp"

namespace parperf::locality {
namespace {

LocalityOptions sampled(double rate) {
  LocalityOptions options;
  options.sample_rate = rate;
  return options;
}

TEST(LocalitySampling, RandomStreamTemporalLocalityWithin001OfExact) {
  LocalityAnalyzer exact, shards(sampled(0.01));
  test::add_uniform_random(exact, 100'000, 1'000'000, 7);
  test::add_uniform_random(shards, 100'000, 1'000'000, 7);
  const LocalityReport exact_report = exact.finish();
  const LocalityReport shards_report = shards.finish();
  EXPECT_NEAR(shards_report.program.temporal, exact_report.program.temporal, 0.01);
  // Counts are scaled by 1/R: estimates of the exact counts.
  EXPECT_NEAR(static_cast<double>(shards_report.program.histograms.word_accesses), 1e6, 1e5);
  EXPECT_NEAR(static_cast<double>(shards_report.program.histograms.footprint_words),
              static_cast<double>(exact_report.program.histograms.footprint_words), 1e4);
}

TEST(LocalitySampling, CyclicStreamTemporalLocalityWithin001OfExact) {
  LocalityAnalyzer exact, shards(sampled(0.01));
  test::add_cyclic(exact, 100'000, 5);
  test::add_cyclic(shards, 100'000, 5);
  EXPECT_NEAR(shards.finish().program.temporal, exact.finish().program.temporal, 0.01);
}

TEST(LocalitySampling, SpatialStridesSeeUnsampledNeighbours) {
  // The window holds every word, so a sampled word of a unit-stride sweep still finds stride 1.
  LocalityAnalyzer shards(sampled(0.01));
  for (std::uint64_t w = 0; w < 200'000; ++w) shards.add(test::load(w));
  EXPECT_NEAR(shards.finish().program.spatial, 1.0, 0.01);
}

}  // namespace
}  // namespace parperf::locality
