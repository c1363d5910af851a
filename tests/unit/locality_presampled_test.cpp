// Streams a capturer already sampled (libparperf-mem with PARPERF_MEM_SAMPLE): the engine scales by
// the capturer's rate and ages the spatial window by the accesses the capturer skipped.
#include <gtest/gtest.h>

#include "analysis/locality/locality_analyzer.hpp"
#include "unit/locality_streams.hpp"

namespace parperf::locality::test {
namespace {

Access skipping(std::uint64_t word, std::uint16_t skipped) {
  Access access = load(word);
  access.skipped_before = skipped;
  return access;
}

// Two interleaved unit-stride streams far apart; the capturer kept only the first: each kept access
// skipped one, and its predecessor two accesses back is still in the window.
TEST(LocalityPresampled, SkippedAccessesInsideTheWindowKeepTheStride) {
  LocalityAnalyzer analyzer;
  for (std::uint64_t i = 0; i < 1000; ++i) analyzer.add(skipping(i, 1));
  EXPECT_NEAR(analyzer.finish().program.spatial, 1.0, 0.002);
}

// A column walk: consecutive kept accesses are neighbours in memory but 100 accesses apart in the
// thread's stream, farther than the window of 32: no stride is short.
TEST(LocalityPresampled, SkippedAccessesBeyondTheWindowLoseTheNeighbour) {
  LocalityAnalyzer analyzer;
  for (std::uint64_t i = 0; i < 1000; ++i) analyzer.add(skipping(i, 99));
  EXPECT_EQ(analyzer.finish().program.spatial, 0.0);
  LocalityAnalyzer unaware;  // the same stream without the skipped counts looks unit-stride
  for (std::uint64_t i = 0; i < 1000; ++i) unaware.add(load(i));
  EXPECT_NEAR(unaware.finish().program.spatial, 1.0, 0.002);
}

// A cyclic sweep over 2000 words kept at rate 1/4: distances (about 500 kept words) and counts are
// scaled by 4, as they would be with the engine's own sampling.
TEST(LocalityPresampled, CountsAndDistancesAreScaledByTheCapturersRate) {
  LocalityOptions options;
  options.presampled_rate = 0.25;
  LocalityAnalyzer analyzer(options);
  for (int sweep = 0; sweep < 3; ++sweep)
    for (std::uint64_t w = 0; w < 2000; w += 4) analyzer.add(skipping(w, 3));
  const LocalityReport report = analyzer.finish();
  EXPECT_DOUBLE_EQ(report.effective_sample_rate, 0.25);
  EXPECT_EQ(report.program.histograms.load_words, 6000u);
  EXPECT_EQ(report.program.histograms.footprint_words, 2000u);
  // Reuse at 499 kept words is about 1996 words: bin 11 holds (1024, 2048].
  EXPECT_EQ(report.program.histograms.reuse[11], 4000u);
}

TEST(LocalityPresampled, RateOutsideTheUnitIntervalIsRefused) {
  LocalityOptions options;
  options.presampled_rate = 0;
  EXPECT_THROW(LocalityAnalyzer{options}, std::invalid_argument);
  options.presampled_rate = 1.5;
  EXPECT_THROW(LocalityAnalyzer{options}, std::invalid_argument);
}

}  // namespace
}  // namespace parperf::locality::test
