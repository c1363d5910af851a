// Which sampled functions the text and the JSON show when an interval has more than they list.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/sampled_functions.hpp"

namespace parperf::report {
namespace {

// 12 leaves of 10 self samples each, under two callers without self samples: `main` on every path
// (120 inclusive), `solver` above 8 of the leaves (80). Listed as the analysis lists them: most self
// first, then most inclusive.
analysis::IntervalSamples leaves_under_callers() {
  analysis::IntervalSamples interval;
  interval.samples = 120;
  for (int i = 0; i < 12; ++i) interval.functions.push_back({"leaf" + std::to_string(i), "", 0, 10, 10});
  interval.functions.push_back({"main", "", 0, 0, 120});
  interval.functions.push_back({"solver", "", 0, 0, 80});
  return interval;
}

std::vector<std::string> names(const std::vector<const analysis::SampledFunction*>& shown) {
  std::vector<std::string> out;
  for (const auto* f : shown) out.push_back(f->function);
  return out;
}

TEST(SampledFunctionsShown, CallersWithoutSelfSamplesAreKeptBesideTheTopLeaves) {
  const auto shown = names(shown_functions(leaves_under_callers(), 10));
  ASSERT_EQ(shown.size(), 12u) << "the 10 leaves with most self samples, and main and solver, which hold "
                                  "all and two thirds of the samples without any of their own";
  EXPECT_EQ(shown[0], "leaf0");
  EXPECT_EQ(shown[9], "leaf9");
  EXPECT_EQ(shown[10], "main");
  EXPECT_EQ(shown[11], "solver");
}

TEST(SampledFunctionsShown, ZeroShowsEveryFunctionAndJsonFollows) {
  const analysis::IntervalSamples interval = leaves_under_callers();
  EXPECT_EQ(shown_functions(interval, 0).size(), interval.functions.size());
  analysis::SampleProfile profile;
  profile.sampled = true;
  profile.samples = 120;
  profile.intervals.push_back(interval);
  const auto json = samples_json(profile, 10);
  ASSERT_EQ(json["intervals"][0]["functions"].size(), 12u) << json["intervals"][0]["functions"].dump(1);
  EXPECT_EQ(json["intervals"][0]["functions"][10]["function"], "main");
}

}  // namespace
}  // namespace parperf::report
