// Scoring instrumented functions (analysis/function_scores.hpp) on a hand-built tree whose answer
// is known, and the filter written from it (report/filter_suggestion.hpp). The tree, on one thread:
//   program 200 ms
//     main 1 call, 200 ms
//       compute 1 call, 150 ms
//         helper 10 000 calls, 0.5 ms in all (50 ns a call)
//       fib 1 call, 40 ms, which recurses: fib inside fib 20 000 calls, 39 ms (under 2 µs a call)
//       tiny 50 calls, 1 µs in all (20 ns a call, but too few calls to matter)
// With 25 ns a call and 1 µs a call the limit: helper is excluded (10 000 x 25 ns = 250 µs saved);
// fib's inner calls take 1.95 µs each, so fib stays; tiny has fewer than 100 calls; main and
// compute are long.
#include <gtest/gtest.h>

#include <string>

#include "analysis/function_scores.hpp"
#include "format/function_filter.hpp"
#include "format/site_kinds.hpp"
#include "report/filter_suggestion.hpp"

namespace parperf::analysis {
namespace {

constexpr auto kFunction = static_cast<std::uint32_t>(format::SiteKind::function);

std::size_t add(IntervalTree& tree, std::size_t parent, const std::string& name, std::uint64_t calls,
                std::uint64_t ns) {
  MergedInterval interval;
  interval.identity = {kFunction, name, "/src/p.c", 10, 0, 0, ""};
  interval.parent = parent;
  interval.level = tree.intervals[parent].level + 1;
  LocationStats stats;
  stats.location = {0, 0};
  stats.count = calls;
  stats.sum_ns = ns;
  interval.locations = {stats};
  tree.intervals.push_back(interval);
  tree.intervals[parent].children.push_back(tree.intervals.size() - 1);
  return tree.intervals.size() - 1;
}

IntervalTree measured_tree() {
  IntervalTree tree;
  tree.intervals.resize(1);
  tree.intervals[0].identity = {0, "program", "", 0, 0, 0, ""};
  LocationStats program;
  program.count = 1;
  program.sum_ns = 200'000'000;
  tree.intervals[0].locations = {program};
  const std::size_t main_function = add(tree, 0, "main", 1, 200'000'000);
  const std::size_t compute = add(tree, main_function, "compute", 1, 150'000'000);
  add(tree, compute, "helper", 10'000, 500'000);
  const std::size_t fib = add(tree, main_function, "fib", 1, 40'000'000);
  add(tree, fib, "fib", 20'000, 39'000'000);
  add(tree, main_function, "tiny", 50, 1'000);
  tree.locations = {{0, 0}};
  return tree;
}

const FunctionScore* score_of(const FunctionScoring& scoring, const std::string& name) {
  for (const auto& f : scoring.functions)
    if (f.name == name) return &f;
  ADD_FAILURE() << "no score for " << name;
  return nullptr;
}

TEST(FunctionScores, FrequentShortCallsAreProposedAndLongOrRareOnesKept) {
  const FunctionScoring scoring = score_functions(measured_tree(), FunctionScoreOptions{});
  ASSERT_EQ(scoring.functions.size(), 5u);
  const FunctionScore* helper = score_of(scoring, "helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_TRUE(helper->exclude) << "10 000 calls of 50 ns each: measuring them costs more than they take";
  EXPECT_EQ(helper->calls, 10'000u);
  EXPECT_NEAR(helper->seconds_per_call, 50e-9, 1e-12);
  EXPECT_NEAR(helper->overhead_seconds, 250e-6, 1e-12);
  const FunctionScore* fib = score_of(scoring, "fib");
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(fib->calls, 20'001u) << "calls count at every depth of the recursion";
  EXPECT_NEAR(fib->seconds, 0.040, 1e-12) << "the inner calls' time is inside the outer call's: counted once";
  EXPECT_FALSE(fib->exclude) << "fib's calls take about 2 µs each";
  for (const char* kept : {"main", "compute", "tiny"}) {
    const FunctionScore* f = score_of(scoring, kept);
    ASSERT_NE(f, nullptr);
    EXPECT_FALSE(f->exclude) << kept << " is proposed for exclusion";
  }
  EXPECT_EQ(scoring.functions.front().name, "helper") << "the proposals come first";
  EXPECT_NEAR(scoring.excluded_overhead_seconds, 250e-6, 1e-12);
  EXPECT_NEAR(scoring.program_seconds, 0.2, 1e-12);
}

TEST(FunctionScores, TheSuggestedFilterExcludesExactlyTheProposals) {
  const FunctionScoring scoring = score_functions(measured_tree(), FunctionScoreOptions{});
  const std::string text = report::render_filter_suggestion(scoring, "run-dir");
  std::vector<std::string> excluded;
  bool malformed = false;
  format::for_each_filter_line(text, [&](int, const format::FilterLine& line) {
    if (line.status == format::FilterLine::Status::error) malformed = true;
    if (line.status == format::FilterLine::Status::rule) excluded.emplace_back(line.rule.pattern);
  });
  EXPECT_FALSE(malformed) << "the suggestion is no valid filter:\n" << text;
  EXPECT_EQ(excluded, std::vector<std::string>{"helper"}) << text;
  EXPECT_NE(text.find("10000 calls, 50 ns a call"), std::string::npos) << "the rule's evidence:\n" << text;
  EXPECT_NE(text.find("saves ~250 µs"), std::string::npos) << text;
}

}  // namespace
}  // namespace parperf::analysis
