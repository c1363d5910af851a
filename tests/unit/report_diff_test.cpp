// `parperf diff` rendered (report/diff_text.hpp, report/diff_json.hpp) from hand-built comparisons:
// what the text lists and cuts, and what the JSON holds for matched, new and vanished intervals.
#include <gtest/gtest.h>

#include <string>

#include "analysis/run_comparison.hpp"
#include "format/site_kinds.hpp"
#include "report/diff_json.hpp"
#include "report/diff_text.hpp"

namespace parperf::report {
namespace {

using analysis::Characteristics;
using analysis::IntervalChange;
using analysis::IntervalStatus;

Characteristics ran_for(double seconds, std::uint64_t processors = 1) {
  Characteristics c;
  c.execution_time = seconds;
  c.processors = processors;
  c.total_time = seconds * static_cast<double>(processors);
  c.productive_time = c.total_time;
  c.entries = 3;
  return c;
}

IntervalChange change(const std::string& name, std::optional<double> a, std::optional<double> b) {
  IntervalChange change;
  change.path = {{static_cast<std::uint32_t>(format::SiteKind::user), name, "/src/heat.c", 40, 0}};
  if (a) change.a = ran_for(*a);
  if (b) change.b = ran_for(*b);
  change.status = !a ? IntervalStatus::added : !b ? IntervalStatus::vanished : IntervalStatus::matched;
  change.impact = std::abs(b.value_or(0) - a.value_or(0));
  return change;
}

// The program (1 s -> 0.8 s), then `count` intervals i with 0.5 s -> 0.4 s.
analysis::RunComparison comparison_of(int count) {
  analysis::RunComparison comparison;
  comparison.a.directory = "runs/before";
  comparison.b.directory = "runs/after";
  comparison.a.command = {"./heat", "100"};
  comparison.a.program = ran_for(1.0);
  comparison.b.program = ran_for(0.8);
  comparison.program.speedup = 1.25;
  IntervalChange program;
  program.a = comparison.a.program;
  program.b = comparison.b.program;
  comparison.intervals.push_back(program);
  for (int i = 0; i < count; ++i)
    comparison.intervals.push_back(change("step" + std::to_string(i), 0.5, 0.4));
  return comparison;
}

int lines_containing(const std::string& text, const std::string& part) {
  int count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// The line of `text` that holds `part`; "" when none does.
std::string line_of(const std::string& text, const std::string& part) {
  const std::size_t at = text.find(part);
  if (at == std::string::npos) return {};
  const std::size_t begin = text.rfind('\n', at) + 1;  // npos + 1 = 0 on the first line
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST(DiffText, CutsALongTableAndSaysHowToSeeItAll) {
  const analysis::RunComparison comparison = comparison_of(30);
  const std::string cut = diff_text(comparison);
  EXPECT_EQ(lines_containing(cut, "heat.c:40"), 25) << cut;
  EXPECT_NE(cut.find("... 5 more (parperf diff --all shows every interval)"), std::string::npos) << cut;
  const std::string all = diff_text(comparison, DiffTextOptions{.all = true});
  EXPECT_EQ(lines_containing(all, "heat.c:40"), 30) << "--all lists every interval:\n" << all;
  EXPECT_EQ(all.find("more (parperf diff --all"), std::string::npos) << all;
}

TEST(DiffText, TheHeaderNamesBothRunsAndTheSpeedup) {
  const std::string text = diff_text(comparison_of(1));
  EXPECT_NE(text.find("runs/before  (./heat 100)"), std::string::npos) << text;
  EXPECT_NE(text.find("runs/after"), std::string::npos) << text;
  EXPECT_NE(text.find("1 thread -> 1 thread"), std::string::npos) << text;
  EXPECT_NE(text.find("1.000000 s -> 0.800000 s  (-0.200000 s, -20%)  speedup 1.25"), std::string::npos)
      << text;
  const std::string row = line_of(text, "step0  heat.c:40");
  for (const char* part : {"-0.100000", "0.500000 -> 0.400000", "-20%", "1.000 -> 1.000"})
    EXPECT_NE(row.find(part), std::string::npos) << "'" << part << "' missing in the row of step0: " << row;
}

TEST(DiffText, NewAndVanishedIntervalsSaySo) {
  analysis::RunComparison comparison = comparison_of(0);
  comparison.intervals.push_back(change("gone", 0.3, std::nullopt));
  comparison.intervals.push_back(change("fresh", std::nullopt, 0.2));
  const std::string text = diff_text(comparison);
  EXPECT_NE(line_of(text, "gone  heat.c:40").find("0.300000 -> -  "), std::string::npos) << text;
  EXPECT_NE(line_of(text, "gone  heat.c:40").find(" vanished "), std::string::npos) << text;
  EXPECT_NE(line_of(text, "fresh  heat.c:40").find("- -> 0.200000  "), std::string::npos) << text;
  EXPECT_NE(line_of(text, "fresh  heat.c:40").find(" new "), std::string::npos) << text;
}

TEST(DiffJson, HoldsBothRunsFiguresAndNullForTheRunWithoutTheInterval) {
  analysis::RunComparison comparison = comparison_of(1);
  comparison.intervals.push_back(change("fresh", std::nullopt, 0.2));
  const auto json = diff_json(comparison);
  EXPECT_EQ(json["parperf_diff"], 1);
  EXPECT_EQ(json["a"]["directory"], "runs/before");
  EXPECT_EQ(json["a"]["command"][1], "100");
  EXPECT_DOUBLE_EQ(json["b"]["execution_time"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(json["program"]["speedup"].get<double>(), 1.25);
  EXPECT_TRUE(json["program"]["scaling_efficiency"].is_null()) << "one processor in both runs";
  ASSERT_EQ(json["intervals"].size(), 3u);
  EXPECT_EQ(json["intervals"][0]["kind"], "program");
  EXPECT_TRUE(json["intervals"][0]["path"].empty());
  const auto& step = json["intervals"][1];
  EXPECT_EQ(step["path"], nlohmann::ordered_json::array({"step0"}));
  EXPECT_EQ(step["path_steps"][0]["file"], "/src/heat.c");
  EXPECT_EQ(step["status"], "matched");
  EXPECT_NEAR(step["delta"]["execution_time"].get<double>(), -0.1, 1e-12);
  EXPECT_NEAR(step["relative_change"].get<double>(), -0.2, 1e-12);
  EXPECT_TRUE(step["a"]["count"].is_number_integer()) << "entries are a count";
  const auto& fresh = json["intervals"][2];
  EXPECT_EQ(fresh["status"], "new");
  EXPECT_TRUE(fresh["a"].is_null());
  EXPECT_TRUE(fresh["relative_change"].is_null());
  EXPECT_TRUE(fresh["delta"]["efficiency"].is_null()) << "no efficiency in A to compare with";
  EXPECT_NEAR(fresh["delta"]["execution_time"].get<double>(), 0.2, 1e-12);
}

// A damaged profile's count (entries of 2^63 and more: no 64-bit integer holds them) is the number it
// is, not a cast that wraps it negative (undefined behaviour, and a lie).
TEST(DiffJson, ACountBeyondSixtyFourBitsStaysTheNumberItIs) {
  analysis::RunComparison comparison = comparison_of(1);
  comparison.intervals[1].a->entries = 18'000'000'000'000'000'000ull;
  const auto json = diff_json(comparison);
  const auto& count = json["intervals"][1]["a"]["count"];
  ASSERT_TRUE(count.is_number()) << count.dump();
  EXPECT_DOUBLE_EQ(count.get<double>(), 1.8e19);
  EXPECT_TRUE(json["intervals"][1]["b"]["count"].is_number_integer()) << "3 entries are still an integer";
}

}  // namespace
}  // namespace parperf::report
