// Temporal locality (DESIGN.md section 6): reuse distances binned in powers of two, weighted by
// (log2 N - i) / log2 N.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/locality/locality_analyzer.hpp"
#include "analysis/locality/locality_scores.hpp"
#include "locality_streams.hpp"

namespace parperf::locality {
namespace {

using test::load;

TEST(LocalityTemporal, ReuseBinsArePowersOfTwo) {
  EXPECT_EQ(reuse_bin(0), 0u);
  EXPECT_EQ(reuse_bin(1), 0u);
  EXPECT_EQ(reuse_bin(2), 1u);
  EXPECT_EQ(reuse_bin(3), 2u);
  EXPECT_EQ(reuse_bin(4), 2u);
  EXPECT_EQ(reuse_bin(5), 3u);
  EXPECT_EQ(reuse_bin(std::uint64_t{1} << 20), 20u);
  EXPECT_EQ(reuse_bin((std::uint64_t{1} << 20) + 1), 21u);
  EXPECT_EQ(reuse_bin(~std::uint64_t{0}), 64u);
}

TEST(LocalityTemporal, DistancesZeroAndOneDoNotCount) {
  // a a b a: distances cold, 0, cold, 1. Both reuses are <= 1: in reuse_1, below the first
  // difference (reuse_2 - reuse_1) of the sum, so TL = 0.
  LocalityAnalyzer analyzer;
  for (std::uint64_t w : {0, 0, 1, 0}) analyzer.add(load(w * 100));
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.histograms.reuse[0], 2u);
  EXPECT_EQ(scores.histograms.cold, 2u);
  EXPECT_EQ(scores.temporal, 0.0);
}

TEST(LocalityTemporal, DistanceTwoHasFullWeight) {
  // a b c a: the last access has distance 2, in (2^0, 2^1]: weight (20 - 0) / 20 = 1, over 4 accesses.
  LocalityAnalyzer analyzer;
  for (std::uint64_t w : {0, 1, 2, 0}) analyzer.add(load(w * 100));
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.histograms.reuse[1], 1u);
  EXPECT_DOUBLE_EQ(scores.temporal, 0.25);
}

TEST(LocalityTemporal, CyclicSweepOf100kWords) {
  // After the first (cold) sweep every access has distance 99 999, in bin 17 = (2^16, 2^17]: weight
  // (20 - 16) / 20 = 0.2. Five sweeps: TL = 0.2 * 4/5 = 0.16.
  LocalityAnalyzer analyzer;
  test::add_cyclic(analyzer, 100'000, 5);
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.histograms.reuse[17], 400'000u);
  EXPECT_EQ(scores.histograms.cold, 100'000u);
  EXPECT_EQ(scores.histograms.footprint_words, 100'000u);
  EXPECT_NEAR(scores.temporal, 0.16, 1e-12);
}

TEST(LocalityTemporal, CyclicSweepOfOneMillionWordsFromItsHistogram) {
  // The DESIGN.md figure: distance 999 999 is in bin 20 = (2^19, 2^20], weight 1/20; TL = 0.05 (s-1)/s
  // after s sweeps, so 0.049 is the value of 50 sweeps (the engine itself runs it in the benchmark).
  LocalityHistograms histograms;
  histograms.word_accesses = 50'000'000;
  histograms.cold = 1'000'000;
  histograms.reuse[20] = 49'000'000;
  EXPECT_NEAR(temporal_locality(histograms.reuse, histograms.word_accesses, 20), 0.049, 1e-12);
}

// Expected TL of `count` uniform random accesses over `words` words, from the start of the stream:
// an access whose previous access to its word was k accesses earlier (probability p (1-p)^(k-1),
// p = 1/words, possible for (count - k) of the accesses) has, concentrated around its mean,
// (words - 1)(1 - (1 - 1/(words - 1))^(k-1)) distinct words in between.
double expected_random_tl(double words, std::uint64_t count, std::uint32_t log2_n) {
  const double p = 1 / words;
  double sum = 0;
  double gap_probability = p;  // p (1-p)^(k-1)
  double untouched = 1;        // (1 - 1/(words-1))^(k-1)
  for (std::uint64_t k = 1; k < count; ++k) {
    const auto distance = static_cast<std::uint64_t>(std::llround((words - 1) * (1 - untouched)));
    const std::size_t bin = reuse_bin(distance);
    if (bin >= 1 && bin <= log2_n) {
      const double weight = (log2_n - static_cast<double>(bin - 1)) / log2_n;
      sum += static_cast<double>(count - k) * gap_probability * weight;
    }
    gap_probability *= 1 - p;
    untouched *= 1 - 1 / (words - 1);
  }
  return sum / static_cast<double>(count);
}

TEST(LocalityTemporal, UniformRandomOver100kWords) {
  // In the steady state the distance is uniform over [0, words) (the gap is geometric), so TL tends
  // to sum_b P(bin b) w_b = 0.290 for 10^5 words; 10 accesses per word, 10% of them cold, give 0.26.
  LocalityAnalyzer analyzer;
  test::add_uniform_random(analyzer, 100'000, 1'000'000, 42);
  const double expected = expected_random_tl(100'000, 1'000'000, 20);
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_NEAR(scores.temporal, expected, 0.003);
  EXPECT_NEAR(scores.spatial, 0.0, 1e-12) << "words 64 apart have no short stride";
}

TEST(LocalityTemporal, UniformRandomOverOneMillionWordsExpectation) {
  // The DESIGN.md figure "TL ~ 0.10": the steady-state value is 0.101; 20 accesses per word (5% cold)
  // give 0.098. (The engine runs this stream in the benchmark.)
  EXPECT_NEAR(expected_random_tl(1e6, 20'000'000, 20), 0.10, 0.005);
}

}  // namespace
}  // namespace parperf::locality
