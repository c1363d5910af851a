// The critical path's functions as the report renders them (report/dependency_report.hpp): the text
// table of the ten with most time on the path, or the line that says how to get them, and the JSON.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "report/dependency_report.hpp"

namespace parperf::report {
namespace {

analysis::TraceAnalysis path_of_one_second() {
  analysis::TraceAnalysis a;
  a.graph = std::make_shared<analysis::ActivityGraph>();
  a.critical_path.length_ns = 1e9;
  return a;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PathFunctionsReport, TheTenFunctionsWithMostTimeOnThePathWithTheirShareSelfAndTotal) {
  analysis::TraceAnalysis a = path_of_one_second();
  analysis::PathFunctions& f = a.critical_path.functions;
  f.sampled = true;
  f.samples = 900;
  f.path_samples = 600;
  for (int i = 0; i < 12; ++i)
    f.functions.push_back({.name = "kernel_" + std::to_string(i),
                           .file = "/src/k.c",
                           .module = "/bin/p",
                           .time_ns = (12.0 - i) * 1e7,
                           .self_ns = 5e6,
                           .share = (12.0 - i) * 1e-2,
                           .total_ns = 3e8,
                           .samples = static_cast<std::uint64_t>(12 - i)});
  f.functions.push_back(
      {.name = "hidden", .file = "", .module = "", .total_ns = 2e8});  // no time on the path: not a row
  const std::string text = critical_path_text(a);
  EXPECT_NE(text.find("Functions on it (from 600 of the run's 900 samples"), std::string::npos) << text;
  EXPECT_EQ(count(text, "kernel_"), 10u) << "the top 10 only:\n" << text;
  EXPECT_NE(text.find("kernel_0 (k.c)"), std::string::npos) << "named with its file's name:\n" << text;
  EXPECT_EQ(text.find("hidden"), std::string::npos) << text;
  const nlohmann::ordered_json j = critical_path_json(a.critical_path);
  ASSERT_EQ(j["functions"].size(), 13u) << "the JSON holds every function";
  EXPECT_EQ(j["functions"][0]["name"], "kernel_0");
  EXPECT_EQ(j["functions"][0]["module"], "/bin/p");
  EXPECT_DOUBLE_EQ(j["functions"][0]["time"].get<double>(), 0.12);
  EXPECT_DOUBLE_EQ(j["functions"][0]["self"].get<double>(), 0.005);
  EXPECT_DOUBLE_EQ(j["functions"][0]["total_time"].get<double>(), 0.3);
  EXPECT_EQ(j["functions"][0]["samples"], 12u);
  EXPECT_EQ(j["function_samples"]["on_path"], 600u);
}

TEST(PathFunctionsReport, AnUnsampledRunSaysThatSampleGivesThem) {
  const std::string text = critical_path_text(path_of_one_second());
  EXPECT_NE(text.find("record with `parperf run --trace --sample`"), std::string::npos) << text;
  EXPECT_EQ(critical_path_json(analysis::CriticalPath{})["function_samples"]["sampled"], false);
}

}  // namespace
}  // namespace parperf::report
