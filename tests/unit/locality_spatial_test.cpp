// Spatial locality (DESIGN.md section 6): strides against the thread's last W word accesses.
#include <gtest/gtest.h>

#include "analysis/locality/locality_analyzer.hpp"
#include "analysis/locality/locality_scores.hpp"
#include "locality_streams.hpp"

namespace parperf::locality {
namespace {

using test::load;

LocalityScores program_of_stride(std::uint64_t stride, std::uint64_t count) {
  LocalityAnalyzer analyzer;
  for (std::uint64_t i = 0; i < count; ++i) analyzer.add(load(1000 + i * stride));
  return analyzer.finish().program;
}

TEST(LocalitySpatial, UnitStrideStreamScoresOne) {
  const LocalityScores scores = program_of_stride(1, 10000);
  // Every access but the first has a neighbour one word away.
  EXPECT_NEAR(scores.spatial, 1.0, 1e-3) << "a unit-stride sweep must have SL = 1";
  EXPECT_EQ(scores.histograms.strides[1], 9999u);
  EXPECT_EQ(scores.histograms.strides.back(), 1u) << "the first access has no neighbour";
}

TEST(LocalitySpatial, StrideKStreamScoresOneOverK) {
  for (std::uint64_t k : {2u, 3u, 8u, 32u}) {
    const LocalityScores scores = program_of_stride(k, 10000);
    EXPECT_NEAR(scores.spatial, 1.0 / static_cast<double>(k), 1e-3) << "stride " << k;
  }
}

TEST(LocalitySpatial, StridesBeyondMaxStrideCountAsLonger) {
  const LocalityScores scores = program_of_stride(33, 1000);
  EXPECT_EQ(scores.spatial, 0.0) << "stride 33 > i_max = 32 is not a short stride";
  EXPECT_EQ(scores.histograms.strides.back(), 1000u);
}

TEST(LocalitySpatial, SmallestDistanceInTheWindowIsTheStride) {
  LocalityAnalyzer analyzer;
  analyzer.add(load(100));
  analyzer.add(load(104));
  analyzer.add(load(102));  // 2 from both; stride 2, not 4
  const auto strides = analyzer.finish().program.histograms.strides;
  EXPECT_EQ(strides[4], 1u);
  EXPECT_EQ(strides[2], 1u);
}

// Far-apart words: no two within max_stride of each other or of word 1000.
void add_far_words(LocalityAnalyzer& analyzer, int count) {
  for (int i = 0; i < count; ++i) analyzer.add(load(1'000'000 + static_cast<std::uint64_t>(i) * 1000));
}

TEST(LocalitySpatial, NeighbourExactlyWAccessesBackIsInTheWindow) {
  LocalityAnalyzer analyzer;  // W = 32
  analyzer.add(load(1000));
  add_far_words(analyzer, 31);
  analyzer.add(load(1001));  // word 1000 is the 32nd access back
  EXPECT_EQ(analyzer.finish().program.histograms.strides[1], 1u);
}

TEST(LocalitySpatial, NeighbourWPlusOneAccessesBackIsOutsideTheWindow) {
  LocalityAnalyzer analyzer;
  analyzer.add(load(1000));
  add_far_words(analyzer, 32);
  analyzer.add(load(1001));  // word 1000 is the 33rd access back
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.histograms.strides[1], 0u) << "the window holds only the last W = 32 word accesses";
  EXPECT_EQ(scores.spatial, 0.0);
}

TEST(LocalitySpatial, SameWordIsNotAStride) {
  LocalityAnalyzer analyzer;
  for (int i = 0; i < 100; ++i) analyzer.add(load(7));
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.spatial, 0.0) << "re-accessing one word is temporal, not spatial, locality";
  EXPECT_EQ(scores.histograms.strides[0], 99u);
}

TEST(LocalitySpatial, SameWordInTheWindowHidesFartherNeighbours) {
  // The stride is the smallest distance, 0 here, so the access counts no stride at all.
  LocalityAnalyzer analyzer;
  analyzer.add(load(10));
  analyzer.add(load(11));
  analyzer.add(load(10));
  const auto strides = analyzer.finish().program.histograms.strides;
  EXPECT_EQ(strides[0], 1u);
  EXPECT_EQ(strides[1], 1u);
}

TEST(LocalitySpatial, SixteenByteAccessIsTwoConsecutiveWords) {
  LocalityAnalyzer analyzer;
  for (std::uint64_t i = 0; i < 100; ++i) analyzer.add(Access{i * 16, 0, 0, 16, true});
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.histograms.word_accesses, 200u);
  EXPECT_EQ(scores.histograms.store_words, 200u);
  EXPECT_EQ(scores.histograms.store_accesses, 100u);
  EXPECT_EQ(scores.histograms.footprint_words, 200u);
  EXPECT_NEAR(scores.spatial, 199.0 / 200.0, 1e-12) << "a 16-byte sweep is a unit-stride word stream";
}

TEST(LocalitySpatial, SubWordAccessesAreOneWord) {
  LocalityAnalyzer analyzer;
  analyzer.add(Access{8, 0, 0, 1, false});
  analyzer.add(Access{12, 0, 0, 4, false});  // same word as byte 8
  const LocalityScores scores = analyzer.finish().program;
  EXPECT_EQ(scores.histograms.word_accesses, 2u);
  EXPECT_EQ(scores.histograms.footprint_words, 1u);
  EXPECT_EQ(scores.histograms.strides[0], 1u);
}

TEST(LocalitySpatial, ScoreIsRecomputedFromTheHistogram) {
  // 4 accesses: stride 1, stride 2, longer, stride 0 with i_max = 2: SL = (1/1 + 1/2) / 4.
  const std::vector<std::uint64_t> strides{1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(spatial_locality(strides, 4), 1.5 / 4);
}

TEST(LocalitySpatial, RejectsInvalidOptions) {
  LocalityOptions options;
  options.word_bytes = 6;
  EXPECT_THROW(LocalityAnalyzer{options}, std::invalid_argument);
  options = {};
  options.sample_rate = 0;
  EXPECT_THROW(LocalityAnalyzer{options}, std::invalid_argument);
}

}  // namespace
}  // namespace parperf::locality
