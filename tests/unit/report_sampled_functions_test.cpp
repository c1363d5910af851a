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

// Each share with its 95 % interval; an interval whose first two functions cannot be told apart says so.
TEST(SampledFunctionsUncertainty, SharesCarryTheirIntervalAndCloseOnesAreNotRanked) {
  analysis::IntervalSamples interval;
  interval.samples = 300;
  interval.ranked = false;  // as the analysis finds for 100 and 95 of 300
  interval.functions.push_back(
      {"f", "", 0, 100, 100, analysis::share_interval(100, 300), analysis::share_interval(100, 300)});
  interval.functions.push_back(
      {"g", "", 0, 95, 95, analysis::share_interval(95, 300), analysis::share_interval(95, 300)});
  analysis::SampleProfile profile;
  profile.sampled = true;
  profile.samples = 300;
  profile.period_ns = 1'000'000;
  profile.intervals.push_back(interval);
  const std::string text = sampled_functions_text(profile, 10);
  EXPECT_NE(text.find(" 33.3% ±5.3"), std::string::npos) << "f's share and half its 95 % interval:\n" << text;
  EXPECT_NE(text.find("too few samples to rank them"), std::string::npos) << text;
  const auto json = samples_json(profile, 10);
  const auto& f = json["intervals"][0]["functions"][0];
  EXPECT_NEAR(f["self_share"].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_NEAR(f["self_interval"][0].get<double>(), 0.2815, 1e-3);
  EXPECT_NEAR(f["self_interval"][1].get<double>(), 0.3894, 1e-3);
  EXPECT_EQ(json["intervals"][0]["ranked"], false);
  interval.ranked = true;
  profile.intervals = {interval};
  EXPECT_EQ(sampled_functions_text(profile, 10).find("too few samples"), std::string::npos);
}

// Samples in the programming model's start-up and shut-down are counted apart: the text and the JSON
// say how many, beside the program's samples, which do not include them.
TEST(SampledFunctionsSetup, StartUpAndShutDownSamplesAreSaidApart) {
  analysis::SampleProfile profile;
  profile.sampled = true;
  profile.samples = 120;
  profile.start_up = 37;
  profile.shut_down = 4;
  profile.intervals.push_back(leaves_under_callers());
  const auto json = samples_json(profile, 10);
  EXPECT_EQ(json["samples"], 120);
  EXPECT_EQ(json["start_up"], 37);
  EXPECT_EQ(json["shut_down"], 4);
  const std::string text = sampled_functions_text(profile, 10, {});
  EXPECT_NE(text.find("37 more samples during start-up and 4 during shut-down"), std::string::npos) << text;
  profile.start_up = profile.shut_down = 0;
  EXPECT_EQ(sampled_functions_text(profile, 10, {}).find("start-up"), std::string::npos)
      << "a run without such samples (or an older profile) says nothing of them";
}

// The threads the programming model's libraries started for themselves are left out: the text and the
// JSON say how many, so that a user comparing with another tool knows what is not there.
TEST(SampledFunctionsSetup, ModelThreadsLeftOutAreSaid) {
  analysis::SampleProfile profile;
  profile.sampled = true;
  profile.samples = 120;
  profile.model_threads = 6;
  profile.intervals.push_back(leaves_under_callers());
  EXPECT_EQ(samples_json(profile, 10)["model_threads"], 6);
  const std::string text = sampled_functions_text(profile, 10, {});
  EXPECT_NE(text.find("6 threads that the programming model's libraries started for themselves"),
            std::string::npos)
      << text;
  profile.model_threads = 0;
  EXPECT_EQ(sampled_functions_text(profile, 10, {}).find("libraries started"), std::string::npos)
      << "a run without such threads (or an older profile) says nothing of them";
}

}  // namespace
}  // namespace parperf::report
