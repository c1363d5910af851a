// Per-thread and per-function figures, and their combination into the program's.
#include <gtest/gtest.h>

#include "analysis/locality/locality_analyzer.hpp"
#include "analysis/locality/locality_scores.hpp"
#include "locality_streams.hpp"

namespace parperf::locality {
namespace {

using test::load;

TEST(LocalityAttribution, ThreadsAreAnalysedIndependently) {
  // Interleaved, the two threads' unit-stride sweeps would look random; each thread alone is a sweep.
  LocalityAnalyzer analyzer;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    analyzer.add(load(i, 0, 0));
    analyzer.add(load(1'000'000 + i * 2, 0, 1));
  }
  const LocalityReport report = analyzer.finish();
  ASSERT_EQ(report.threads.size(), 2u);
  EXPECT_NEAR(report.threads.at(0).spatial, 0.999, 1e-12);
  EXPECT_NEAR(report.threads.at(1).spatial, 0.4995, 1e-12);
  EXPECT_NEAR(report.program.spatial, (0.999 + 0.4995) / 2, 1e-12);
}

TEST(LocalityAttribution, ReuseDistanceIsWithinTheThread) {
  // Thread 1 touches many words between thread 0's two accesses to word 5: thread 0 sees distance 0.
  LocalityAnalyzer analyzer;
  analyzer.add(load(5, 0, 0));
  for (std::uint64_t w = 100; w < 200; ++w) analyzer.add(load(w, 0, 1));
  analyzer.add(load(5, 0, 0));
  const LocalityReport report = analyzer.finish();
  EXPECT_EQ(report.threads.at(0).histograms.reuse[0], 1u);
}

TEST(LocalityAttribution, SharedWordsCountOnceInTheProgramFootprint) {
  LocalityAnalyzer analyzer;
  for (std::uint64_t w = 0; w < 10; ++w) {
    analyzer.add(load(w, 0, 0));
    analyzer.add(load(w, 0, 1));
  }
  const LocalityReport report = analyzer.finish();
  EXPECT_EQ(report.threads.at(0).histograms.footprint_words, 10u);
  EXPECT_EQ(report.threads.at(1).histograms.footprint_words, 10u);
  EXPECT_EQ(report.program.histograms.footprint_words, 10u);
}

TEST(LocalityAttribution, FunctionsGetTheirAccessesWithDistancesInTheWholeThreadStream) {
  // Function 1 reads words 0..99 twice; function 2 reads 1000 words in between: function 1's second
  // pass has distance 99 + 1000 = 1099 (bin 11), not 99.
  LocalityAnalyzer analyzer;
  for (std::uint64_t w = 0; w < 100; ++w) analyzer.add(load(w, 1));
  for (std::uint64_t w = 0; w < 1000; ++w) analyzer.add(load(10'000 + w, 2));
  for (std::uint64_t w = 0; w < 100; ++w) analyzer.add(Access{w * 8, 1, 0, 8, true});
  const LocalityReport report = analyzer.finish();
  const LocalityHistograms& f1 = report.functions.at(1).histograms;
  EXPECT_EQ(f1.word_accesses, 200u);
  EXPECT_EQ(f1.load_accesses, 100u);
  EXPECT_EQ(f1.store_accesses, 100u);
  EXPECT_EQ(f1.reuse[11], 100u);
  EXPECT_EQ(f1.cold, 100u);
  EXPECT_EQ(f1.footprint_words, 100u);
  EXPECT_EQ(report.functions.at(2).histograms.word_accesses, 1000u);
  EXPECT_EQ(report.functions.at(2).histograms.footprint_words, 1000u);
}

TEST(LocalityAttribution, FunctionFootprintCountsWordsFirstTouchedByAnother) {
  LocalityAnalyzer analyzer;
  for (std::uint64_t w = 0; w < 50; ++w) analyzer.add(load(w, 1));
  for (std::uint64_t w = 0; w < 50; ++w) analyzer.add(load(w, 2));
  for (std::uint64_t w = 0; w < 50; ++w) analyzer.add(load(w, 2));
  const LocalityReport report = analyzer.finish();
  EXPECT_EQ(report.functions.at(1).histograms.footprint_words, 50u);
  EXPECT_EQ(report.functions.at(2).histograms.footprint_words, 50u);
}

void expect_sum(const std::map<std::uint32_t, LocalityScores>& functions, const LocalityScores& program) {
  LocalityHistograms sum;
  for (const auto& [id, scores] : functions) sum += scores.histograms;
  EXPECT_EQ(sum.word_accesses, program.histograms.word_accesses);
  EXPECT_EQ(sum.load_accesses, program.histograms.load_accesses);
  EXPECT_EQ(sum.store_words, program.histograms.store_words);
  EXPECT_EQ(sum.strides, program.histograms.strides);
  EXPECT_EQ(sum.reuse, program.histograms.reuse);
  EXPECT_EQ(sum.cold, program.histograms.cold);
}

TEST(LocalityAttribution, ProgramIsTheSumOfThreadsAndOfFunctions) {
  LocalityAnalyzer analyzer;
  std::mt19937_64 random(3);
  for (int i = 0; i < 20'000; ++i) {
    const auto r = random();
    analyzer.add(Access{(r >> 20) % 4096 * 8, static_cast<std::uint32_t>(r % 5),
                        static_cast<std::uint16_t>((r >> 8) % 3), static_cast<std::uint8_t>(r & 16),
                        (r >> 12) % 2 == 0});
  }
  const LocalityReport report = analyzer.finish();
  expect_sum(report.functions, report.program);
  std::map<std::uint32_t, LocalityScores> threads(report.threads.begin(), report.threads.end());
  expect_sum(threads, report.program);
  // Scores of the combined histograms, not averages of scores.
  const LocalityScores recomputed = score(report.program.histograms, 20);
  EXPECT_DOUBLE_EQ(recomputed.spatial, report.program.spatial);
  EXPECT_DOUBLE_EQ(recomputed.temporal, report.program.temporal);
}

TEST(LocalityAttribution, ScatterSampleIsBoundedAndOrdered) {
  LocalityOptions options;
  options.scatter_points = 100;
  LocalityAnalyzer analyzer(options);
  for (std::uint64_t i = 0; i < 10'000; ++i) analyzer.add(load(i));
  const auto scatter = analyzer.finish().scatter;
  ASSERT_EQ(scatter.size(), 100u);
  for (std::size_t i = 1; i < scatter.size(); ++i)
    EXPECT_LT(scatter[i - 1].access_index, scatter[i].access_index);
  EXPECT_GT(scatter.back().access_index, 5000u) << "a reservoir, not the first 100 accesses";
  EXPECT_EQ(scatter.front().address, scatter.front().access_index * 8);
}

}  // namespace
}  // namespace parperf::locality

namespace parperf::locality {
namespace {

TEST(LocalityAttribution, BatchedAddEqualsOneByOne) {
  std::vector<Access> accesses;
  std::mt19937_64 random(9);
  for (int i = 0; i < 5000; ++i)
    accesses.push_back(
        test::load(random() % 2000, static_cast<std::uint32_t>(i % 3), static_cast<std::uint16_t>(i % 2)));
  LocalityAnalyzer one_by_one, batched;
  for (const Access& access : accesses) one_by_one.add(access);
  batched.add(std::span<const Access>(accesses));
  const LocalityReport a = one_by_one.finish(), b = batched.finish();
  EXPECT_EQ(a.program.histograms.reuse, b.program.histograms.reuse);
  EXPECT_EQ(a.program.histograms.strides, b.program.histograms.strides);
  EXPECT_EQ(a.program.temporal, b.program.temporal);
}

}  // namespace
}  // namespace parperf::locality
