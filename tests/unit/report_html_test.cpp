// The HTML report's C++ half (src/report/html): the page data a browser draws from (the profile's
// report, and why the run takes its time: POP factors, critical path, delay costs), its escaping for
// a script element, and the page standing alone. The drawing itself is tested in a real browser
// (tests/browser, ctest html_report_browser).
#include <gtest/gtest.h>

#include <string>

#include "report/dependency_report.hpp"
#include "report/html/data_uri.hpp"
#include "report/html/html_page.hpp"
#include "report/html/page_data.hpp"
#include "report/html/report_html_page.hpp"
#include "report/html/script_json.hpp"

namespace parperf::report::html {
namespace {

using json = nlohmann::ordered_json;

TEST(ScriptJson, NamesThatAreMarkupCannotEndTheScriptElement) {
  const std::string hostile = "</script><img src=x onerror=alert(1)> & \xE2\x80\xA8 \xE2\x80\xA9";
  const json data = {{"name", hostile}, {"nested", {{"file", "<svg onload=alert(3)>.c"}}}};
  const std::string text = script_json(data);
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_EQ(text.find('>'), std::string::npos) << text;
  EXPECT_EQ(text.find('&'), std::string::npos) << text;
  EXPECT_EQ(text.find("\xE2\x80\xA8"), std::string::npos) << "U+2028 left raw: " << text;
  // The browser's JSON.parse gives back exactly the program's names.
  EXPECT_EQ(json::parse(text), data);
}

TEST(ScriptJson, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  const json data = {{"name", std::string("loop\xff\xfe")}};
  const json back = json::parse(script_json(data));
  EXPECT_EQ(back["name"], "loop\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(DataUri, Base64MatchesTheStandardVectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\xff\x00\x80", 3)), "/wCA");
  EXPECT_EQ(svg_data_uri("<svg/>"), "data:image/svg+xml;base64,PHN2Zy8+");
}

analysis::ProcessorFigures processor(std::int64_t number, double execution, double idle) {
  analysis::ProcessorFigures f;
  f.processor = number;
  f.execution_time = execution;
  f.productive_time = execution - idle;
  f.idle_time = idle;
  f.lost_time = idle;
  return f;
}

ReportInterval interval(const std::string& name, std::uint32_t level, double execution,
                        std::size_t processors) {
  ReportInterval i;
  i.identity = {1, name, "solver.c", 10 + level, 0};
  i.level = level;
  i.count = 3;
  i.characteristics.execution_time = execution;
  i.characteristics.processors = processors;
  i.characteristics.total_time = execution * static_cast<double>(processors);
  i.characteristics.productive_time = 0.75 * i.characteristics.total_time;
  i.characteristics.idle_time = 0.25 * i.characteristics.total_time;
  i.characteristics.lost_time = i.characteristics.idle_time;
  i.characteristics.efficiency = 0.75;
  i.diagnosis = "idle time is 25% of total";
  for (std::size_t p = 0; p < processors; ++p)
    i.per_processor.push_back(processor(static_cast<std::int64_t>(p), execution, p == 0 ? 0 : execution / 3));
  return i;
}

// program (4 processors, 2 s) with two children: "big" (1 s) and "small" (0.1 s), the latter nested.
Report three_intervals() {
  Report report;
  report.run.directory = "/runs/a";
  report.run.command = "./solver";
  ReportInterval program = interval("program", 0, 2.0, 4);
  ReportInterval big = interval("big", 1, 1.0, 4);
  big.children.push_back(interval("small", 2, 0.1, 4));
  program.children.push_back(std::move(big));
  report.intervals.push_back(std::move(program));
  report.program_total_time = 8.0;
  return report;
}

TEST(PageData, TheTreeIsStoredColumnByColumnInDepthFirstOrder) {
  const json data = report_page_data(three_intervals());
  EXPECT_EQ(data["page"], "report");
  const json& columns = data["intervals"];
  for (const auto& [name, column] : columns.items()) EXPECT_EQ(column.size(), 3u) << "column " << name;
  EXPECT_EQ(columns["name"], json({"program", "big", "small"}));
  EXPECT_EQ(columns["parent"], json({-1, 0, 1})) << "each interval names its parent's position";
  EXPECT_EQ(columns["level"], json({0, 1, 2}));
  EXPECT_DOUBLE_EQ(columns["execution"][1].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(columns["efficiency"][0].get<double>(), 0.75);
  // Repeated strings once: the three diagnoses are the same text, stored once.
  const json& strings = data["strings"];
  EXPECT_EQ(columns["diagnosis"][0], columns["diagnosis"][2]);
  EXPECT_EQ(strings[columns["diagnosis"][0].get<std::size_t>()], "idle time is 25% of total");
  EXPECT_EQ(strings[columns["file"][1].get<std::size_t>()], "solver.c");
}

TEST(PageData, OnlyTheDiagnosesOfTheIntervalsThatLoseMostAreKept) {
  // Lost time: program 2, big 1, small 0.1 (a quarter of each Total time); keep two.
  const json data = report_page_data(three_intervals(), {}, PageLimits{.diagnoses = 2});
  const json& diagnosis = data["intervals"]["diagnosis"];
  EXPECT_GE(diagnosis[0].get<int>(), 0);
  EXPECT_GE(diagnosis[1].get<int>(), 0);
  EXPECT_EQ(diagnosis[2], -1) << "the interval that loses least should have had its diagnosis left out";
}

TEST(PageData, TimesKeepFourSignificantDigits) {
  Report report = three_intervals();
  report.intervals[0].characteristics.execution_time = 1.23456789;
  const json data = report_page_data(report);
  EXPECT_DOUBLE_EQ(data["intervals"]["execution"][0].get<double>(), 1.235);
}

TEST(PageData, PerProcessorRowsGoToTheCostliestIntervalsWithinTheBudget) {
  // 4 rows each; a budget of 9 keeps the program's and big's, and leaves small out, saying so.
  const json data = report_page_data(three_intervals(), {}, PageLimits{.processor_rows = 9});
  const json& processors = data["processors"];
  ASSERT_TRUE(processors.contains("0")) << processors.dump();
  ASSERT_TRUE(processors.contains("1")) << processors.dump();
  EXPECT_FALSE(processors.contains("2")) << "the cheapest interval's rows should have been left out";
  const json& program = processors["0"];
  EXPECT_EQ(program["processor"], json({0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(program["idle"][1].get<double>(), 0.6667);
  EXPECT_DOUBLE_EQ(program["productive"][0].get<double>(), 2.0);
}

TEST(PageData, ExtrasAppearOnlyWhenTheRunHasThem) {
  const json plain = report_page_data(three_intervals());
  EXPECT_FALSE(plain.contains("timeline"));
  EXPECT_FALSE(plain.contains("locality"));
  PageExtras extras;
  extras.locality = PageSection{"spatial locality 0.12", {{"map", "<svg/>"}}};
  const json with = report_page_data(three_intervals(), extras);
  EXPECT_EQ(with["locality"]["text"], "spatial locality 0.12");
  EXPECT_EQ(with["locality"]["pictures"][0]["src"], "data:image/svg+xml;base64,PHN2Zy8+");
}

// "big" (tree index 1) sampled 100 times: main > solve > a 60, main > solve > b 30, main > c 10.
Report sampled_big() {
  Report report = three_intervals();
  report.intervals[0].tree_index = 0;
  report.intervals[0].children[0].tree_index = 1;
  report.intervals[0].children[0].children[0].tree_index = 2;
  report.samples.sampled = true;
  report.samples.samples = 100;
  analysis::IntervalSamples big;
  big.interval = 1;
  big.identity.name = "big";
  big.samples = 100;
  big.paths = {{{"main", "solve", "a"}, 60}, {{"main", "solve", "b"}, 30}, {{"main", "c"}, 10}};
  big.functions = {{"a", "", 0, 60, 60}, {"b", "", 0, 30, 30}, {"c", "", 0, 10, 10}};
  report.samples.intervals.push_back(big);
  return report;
}

TEST(PageData, FlameGraphPathsAreFrameIndicesAndSamplesWithinTheBudget) {
  const json data = report_page_data(sampled_big(), {}, PageLimits{.flame_paths_per_interval = 2});
  const json& samples = data["samples"];
  ASSERT_EQ(samples["intervals"].size(), 1u) << samples.dump();
  const json& big = samples["intervals"][0];
  EXPECT_EQ(big["node"], 1) << "big is the page's second node";
  EXPECT_FALSE(big.contains("paths")) << "the call paths travel as the flame graph's, not twice";
  const json& names = samples["frame_names"];
  EXPECT_EQ(names, json({"main", "solve", "a", "b"})) << "each name once, c's path left out";
  EXPECT_EQ(big["flame"]["paths"], json({{0, 1, 2, 60}, {0, 1, 3, 30}}))
      << "the two commonest paths, as name indices then samples";
  EXPECT_EQ(big["flame"]["left_out"], 10) << "main > c's 10 samples are said to be left out";
  const json unlimited = report_page_data(sampled_big());
  EXPECT_EQ(unlimited["samples"]["intervals"][0]["flame"]["left_out"], 0);
  EXPECT_EQ(unlimited["samples"]["intervals"][0]["flame"]["paths"].size(), 3u);
}

// A profile gives three POP factors (a quarter of the program's processor time idle: load balance
// 0.8 x communication efficiency 0.75 = 0.6); serialisation and transfer need the trace.
TEST(ReportHtml, AProfileOnlyRunShowsTheThreeProfileFactorsAndSaysWhatNeedsTheTrace) {
  const Report report = three_intervals();
  const HtmlPageInputs inputs{.report = report, .profile_pop = {0.6, 0.8, 0.75, std::nullopt, std::nullopt}};
  const json data = report_html_data(inputs);
  ASSERT_TRUE(data.contains("pop")) << "the page of a profiled run shows no POP factors";
  const json& pop = data["pop"];
  EXPECT_EQ(pop["source"], "profile");
  EXPECT_DOUBLE_EQ(pop["parallel_efficiency"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(pop["load_balance"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(pop["communication_efficiency"].get<double>(), 0.75);
  EXPECT_TRUE(pop["serialisation_efficiency"].is_null()) << "a profile cannot give serialisation efficiency";
  EXPECT_EQ(pop["needs_trace"], json({"serialisation_efficiency", "transfer_efficiency"}));
  EXPECT_FALSE(data.contains("critical_path")) << "a run without trace has no critical path to show";
  EXPECT_FALSE(data.contains("delay_costs"));
}

TEST(ReportHtml, ADirectoryOfLocalityResultsOnlyShowsNoFactors) {
  const Report nothing_profiled;
  const json data = report_html_data(HtmlPageInputs{.report = nothing_profiled});
  EXPECT_FALSE(data.contains("pop")) << "factors of a run that was never profiled would be made up";
}

// Two ranks of a pipeline, 100 ms: "stage" is 90 ms of the path; "side" works 30 ms on rank 0
// while rank 1 runs its stage, so none of it is on the path. Rank 0's stage makes rank 1 wait 40 ms.
analysis::TraceAnalysis pipeline_analysis() {
  analysis::TraceAnalysis a;
  auto graph = std::make_shared<analysis::ActivityGraph>();
  graph->locations = {{.rank = 0}, {.rank = 1}};
  graph->linked.messages = 3;
  a.graph = graph;
  const analysis::GraphInterval stage{"stage", 1, "pipe.c", 12};
  const analysis::GraphInterval side{"side", 1, "pipe.c", 20};
  analysis::CriticalPath& p = a.critical_path;
  p.length_ns = 100e6;
  p.intervals.push_back({{90e6, 0.9}, stage, 90e6, false});
  p.intervals.push_back({{0, 0}, side, 30e6, true});  // as critical_path judges it: off the path
  p.locations.push_back({{60e6, 0.6}, 1, 0});
  p.locations.push_back({{40e6, 0.4}, 0, 0});
  p.activities.push_back({{90e6, 0.9}, "computation"});
  p.location_changes = 1;
  a.repair.edges = 4;
  a.pop.overall = {0.5, 0.625, 0.8, 0.85, 0.94};
  a.pop.mpi = a.pop.overall;
  a.pop.run_time_ns = 100e6;
  a.delays.waiting_ns = 40e6;
  a.delays.charged_ns = 40e6;
  a.delays.causes.push_back({.rank = 0, .interval = stage, .delay_ns = 40e6, .waiting = 1, .waits = 2});
  return a;
}

TEST(ReportHtml, ATracedRunShowsItsFactorsItsCriticalPathAndWhatCausedTheWaiting) {
  const Report report = three_intervals();
  const analysis::TraceAnalysis traced = pipeline_analysis();
  const json data = report_html_data(HtmlPageInputs{.report = report, .trace = &traced});
  ASSERT_TRUE(data.contains("pop")) << "the traced run's page shows no POP factors";
  const json& pop = data["pop"];
  EXPECT_EQ(pop["source"], "trace");
  EXPECT_DOUBLE_EQ(pop["serialisation_efficiency"].get<double>(), 0.85);
  EXPECT_DOUBLE_EQ(pop["mpi"]["transfer_efficiency"].get<double>(), 0.94) << "the MPI column is missing";
  EXPECT_FALSE(pop.contains("openmp")) << "a run of one thread per rank has no OpenMP column";

  ASSERT_TRUE(data.contains("critical_path")) << "the traced run's page has no critical path";
  const json& path = data["critical_path"];
  EXPECT_DOUBLE_EQ(path["length"].get<double>(), 0.1);
  ASSERT_EQ(path["intervals"].size(), 2u);
  EXPECT_EQ(path["intervals"][0]["name"], "stage");
  EXPECT_DOUBLE_EQ(path["intervals"][0]["share"].get<double>(), 0.9);
  EXPECT_EQ(path["intervals"][0]["off_path"], false) << "'stage' is 90 % of the path";
  EXPECT_EQ(path["intervals"][1]["off_path"], true) << "'side' works 30 % of the run's time and none of it "
                                                       "on the path: the analysis judged it off the path, "
                                                       "the page does not say so";
  EXPECT_EQ(path["locations"][0]["name"], "rank 1");
  EXPECT_EQ(path["activities"][0]["name"], "computation");
  EXPECT_EQ(path["clock_repair"], "Clock condition: all 4 dependencies ran forward in time; no event moved");
  EXPECT_EQ(path["dependencies"], "Dependencies linked: 3 messages") << "the page does not count the links";

  const json& delays = data["delay_costs"];
  EXPECT_DOUBLE_EQ(delays["waiting"].get<double>(), 0.04);
  EXPECT_EQ(delays["summary"],
            "40 ms of waiting in all; 40 ms of it traced back to the computation that caused it")
      << "the page words the waiting otherwise than the text report";
  EXPECT_EQ(path["no_interval"], std::string(kNoIntervalOnPath));
  ASSERT_EQ(delays["causes"].size(), 1u);
  EXPECT_NE(delays["causes"][0].get<std::string>().find(
                "Rank 0's interval \"stage\" at pipe.c:12 makes 1 other location wait 40 ms"),
            std::string::npos)
      << delays["causes"][0];
  EXPECT_TRUE(data.contains("wait_states")) << "the wait states of the trace are still shown";
}

TEST(HtmlPage, StandsAloneAndLoadsNothing) {
  const std::string page = report_page(three_intervals());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page.find("id=\"parperf-data\""), std::string::npos);
  for (const char* fetch : {"<link", "src=\"http", "@import", "url(http", "fetch(", "XMLHttpRequest"})
    EXPECT_EQ(page.find(fetch), std::string::npos) << "the page would load " << fetch;
  // The data and the script are two script elements; nothing else closes one.
  std::size_t closes = 0;
  for (auto at = page.find("</script>"); at != std::string::npos; at = page.find("</script>", at + 1))
    ++closes;
  EXPECT_EQ(closes, 2u);
}

}  // namespace
}  // namespace parperf::report::html
