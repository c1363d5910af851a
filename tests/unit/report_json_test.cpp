// The JSON report: its exact shape (the names other tools read) and that every value is the
// computed one, in seconds. The report model is built by hand; rendering only formats it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "report/json_report.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

ReportInterval interval(std::uint32_t kind, const std::string& name, std::uint32_t level) {
  ReportInterval i;
  i.identity = {kind, name, "solver.cpp", 42, 3};
  i.level = level;
  i.count = 5;
  i.diagnosis = "no significant loss: efficiency 100%";
  return i;
}

Report sample_report() {
  Report report;
  report.run.directory = "/runs/a";
  report.run.command = "./a 1";
  report.run.processes = 2;
  report.run.world_size = 2;
  report.run.threads = 4;
  report.run.unit = analysis::Unit::rank;
  report.run.end_reasons = {{0, "profile.0.ppf", format::EndReason::exit, 0},
                            {1, "profile.1.ppf", format::EndReason::signal, 11}};
  report.run.warnings = {"rank 1: 2 interval entries were not recorded"};

  ReportInterval root = interval(0, "a", 0);
  ReportInterval loop = interval(2, "sweep", 1);
  analysis::Characteristics& c = loop.characteristics;
  c.efficiency = 0.75;
  c.execution_time = 0.2;
  c.processors = 2;
  c.threads = 4;
  c.total_time = 0.4;
  c.productive_time = 0.3;
  c.productive_cpu = 0.25;
  c.productive_sys = 0.04;
  c.productive_io = 0.01;
  c.lost_time = 0.1;
  c.insufficient_parallelism = 0.03;
  c.insufficient_parallelism_user = 0.02;
  c.insufficient_parallelism_sys = 0.01;
  c.communication = 0.05;
  c.communication_real_sync = 0.035;
  c.communication_starts = 0.015;
  c.idle_time = 0.02;
  c.load_imbalance = 0.06;
  c.synchronization = 0.007;
  c.time_variation = 0.008;
  c.overlap = 0.009;
  c.os_cpu_user = 0.5;
  c.os_cpu_sys = 0.06;
  loop.open = true;
  loop.comparative.extremes[static_cast<std::size_t>(analysis::Figure::execution_time)] = {0.15, 1, 0.2, 0,
                                                                                           0.175};
  analysis::ProcessorFigures row;
  row.processor = 1;
  row.rank = 1;
  row.entries = 3;
  row.execution_time = 0.15;
  row.idle_time = 0.05;
  loop.per_processor = {row};
  loop.iterations = analysis::IterationTotals{10, 0.2, 0.02, 0.01, 0.04};
  analysis::EventTotals event;
  event.name = "send";
  event.description = "send %d bytes";
  event.starts = 2;
  event.ends = 2;
  event.total = 0.004;
  event.mean = 0.002;
  event.first_description = "send 64 bytes";
  loop.events = {event};
  loop.diagnosis = "communication is 12% of total: 35 ms waiting for partners, 15 ms in call overhead";
  root.children.push_back(loop);
  root.children.push_back(interval(3, "seq", 1));
  report.intervals.push_back(root);
  return report;
}

TEST(report_json, TheTopLevelAndTheRunHaveExactlyTheDocumentedFields) {
  json j = render_json(sample_report());
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"parperf_report", "run", "intervals"}));
  EXPECT_EQ(j["parperf_report"], 1);
  const json& run = j["run"];
  EXPECT_EQ(keys_of(run), (std::set<std::string>{"directory", "command", "processes", "threads", "unit",
                                                 "end_reasons", "warnings"}));
  EXPECT_EQ(run["directory"], "/runs/a");
  EXPECT_EQ(run["command"], "./a 1");
  EXPECT_EQ(run["processes"], 2);
  EXPECT_EQ(run["threads"], 4);
  EXPECT_EQ(run["unit"], "rank");
  EXPECT_EQ(run["warnings"].size(), 1u);
  EXPECT_EQ(run["end_reasons"][0],
            (json{{"rank", 0}, {"file", "profile.0.ppf"}, {"reason", "exit"}, {"signal", nullptr}}));
  EXPECT_EQ(run["end_reasons"][1]["reason"], "signal");
  EXPECT_EQ(run["end_reasons"][1]["signal"], 11);
}

TEST(report_json, AnIntervalHasEveryCharacteristicUnderItsSnakeCaseName) {
  json root = render_json(sample_report())["intervals"].at(0);
  EXPECT_EQ(root["kind"], "program");
  const json& loop = root["children"].at(0);
  EXPECT_EQ(keys_of(loop), (std::set<std::string>{"kind",
                                                  "name",
                                                  "file",
                                                  "line",
                                                  "value",
                                                  "level",
                                                  "count",
                                                  "open",
                                                  "efficiency",
                                                  "execution_time",
                                                  "processors",
                                                  "threads",
                                                  "total_time",
                                                  "productive_time",
                                                  "productive_cpu",
                                                  "productive_sys",
                                                  "productive_io",
                                                  "lost_time",
                                                  "insufficient_parallelism",
                                                  "insufficient_parallelism_user",
                                                  "insufficient_parallelism_sys",
                                                  "communication",
                                                  "communication_real_sync",
                                                  "communication_starts",
                                                  "idle_time",
                                                  "load_imbalance",
                                                  "synchronization",
                                                  "time_variation",
                                                  "overlap",
                                                  "os_cpu_user",
                                                  "os_cpu_sys",
                                                  "comparative",
                                                  "per_processor",
                                                  "iterations",
                                                  "events",
                                                  "diagnosis",
                                                  "children"}));
  EXPECT_EQ(loop["kind"], "parallel_loop");
  EXPECT_EQ(loop["name"], "sweep");
  EXPECT_EQ(loop["file"], "solver.cpp");
  EXPECT_EQ(loop["line"], 42);
  EXPECT_EQ(loop["value"], 3);
  EXPECT_EQ(loop["level"], 1);
  EXPECT_EQ(loop["count"], 5);
  EXPECT_EQ(loop["open"], true);
  EXPECT_DOUBLE_EQ(loop["efficiency"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(loop["execution_time"].get<double>(), 0.2);
  EXPECT_EQ(loop["processors"], 2);
  EXPECT_EQ(loop["threads"], 4);
  EXPECT_DOUBLE_EQ(loop["total_time"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(loop["productive_time"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(loop["productive_cpu"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(loop["productive_sys"].get<double>(), 0.04);
  EXPECT_DOUBLE_EQ(loop["productive_io"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(loop["lost_time"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(loop["insufficient_parallelism"].get<double>(), 0.03);
  EXPECT_DOUBLE_EQ(loop["insufficient_parallelism_user"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(loop["insufficient_parallelism_sys"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(loop["communication"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(loop["communication_real_sync"].get<double>(), 0.035);
  EXPECT_DOUBLE_EQ(loop["communication_starts"].get<double>(), 0.015);
  EXPECT_DOUBLE_EQ(loop["idle_time"].get<double>(), 0.02);
  EXPECT_DOUBLE_EQ(loop["load_imbalance"].get<double>(), 0.06);
  EXPECT_DOUBLE_EQ(loop["synchronization"].get<double>(), 0.007);
  EXPECT_DOUBLE_EQ(loop["time_variation"].get<double>(), 0.008);
  EXPECT_DOUBLE_EQ(loop["overlap"].get<double>(), 0.009);
  EXPECT_DOUBLE_EQ(loop["os_cpu_user"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(loop["os_cpu_sys"].get<double>(), 0.06);
  EXPECT_EQ(loop["diagnosis"],
            "communication is 12% of total: 35 ms waiting for partners, 15 ms in call overhead");
  EXPECT_EQ(root["children"].at(1)["kind"], "sequential_loop");
  EXPECT_FALSE(root.contains("iterations")) << "iterations only appear with loop iteration marks";
}

TEST(report_json, ComparativeFiguresNameTheirProcessors) {
  json j = render_json(sample_report());
  const json& cmp = j["intervals"][0]["children"][0]["comparative"];
  EXPECT_EQ(keys_of(cmp), (std::set<std::string>{"execution_time", "productive_time", "lost_time",
                                                 "idle_time", "load_imbalance", "insufficient_parallelism",
                                                 "communication", "os_cpu_user", "os_cpu_sys", "count"}));
  EXPECT_EQ(cmp["execution_time"],
            (json{{"min", 0.15}, {"min_processor", 1}, {"max", 0.2}, {"max_processor", 0}, {"mean", 0.175}}));
  EXPECT_TRUE(cmp["idle_time"]["min_processor"].is_null()) << "no processor to name for an empty figure";
}

TEST(report_json, PerProcessorRowsIterationsAndEvents) {
  json j = render_json(sample_report());
  const json& loop = j["intervals"][0]["children"][0];
  ASSERT_EQ(loop["per_processor"].size(), 1u);
  const json& row = loop["per_processor"][0];
  EXPECT_EQ(keys_of(row), (std::set<std::string>{"processor", "rank", "thread", "count", "execution_time",
                                                 "productive_time", "lost_time", "idle_time",
                                                 "load_imbalance", "insufficient_parallelism",
                                                 "communication", "os_cpu_user", "os_cpu_sys"}));
  EXPECT_EQ(row["processor"], 1);
  EXPECT_TRUE(row["thread"].is_null()) << "a process as a processor has no thread";
  EXPECT_EQ(row["count"], 3);
  EXPECT_DOUBLE_EQ(row["idle_time"].get<double>(), 0.05);
  EXPECT_EQ(loop["iterations"],
            (json{{"count", 10}, {"total", 0.2}, {"mean", 0.02}, {"min", 0.01}, {"max", 0.04}}));
  ASSERT_EQ(loop["events"].size(), 1u);
  const json& e = loop["events"][0];
  EXPECT_EQ(keys_of(e), (std::set<std::string>{"name", "description", "starts", "ends", "atomics", "total",
                                               "mean", "min", "max", "first_description"}));
  EXPECT_EQ(e["first_description"], "send 64 bytes");
  EXPECT_DOUBLE_EQ(e["total"].get<double>(), 0.004);
}

TEST(report_json, PerProcessorIsPresentEvenWhenEmpty) {
  json j = render_json(sample_report());
  const json& seq = j["intervals"][0]["children"][1];
  ASSERT_TRUE(seq.contains("per_processor"));
  EXPECT_TRUE(seq["per_processor"].is_array());
  EXPECT_TRUE(seq["children"].is_array());
  EXPECT_TRUE(seq["events"].is_array());
}

TEST(report_json, NamesThatAreNotUtf8AreRepairedNotFatal) {
  Report report = sample_report();
  report.intervals[0].identity.name = "bad\xff\xfename";
  report.intervals[0].identity.file = "file\xc3.c";
  const std::string text = render_json_text(report);
  const auto parsed = json::parse(text);  // valid JSON again
  EXPECT_EQ(parsed["intervals"][0]["name"], "bad\uFFFD\uFFFDname");
  EXPECT_EQ(parsed["intervals"][0]["file"], "file\uFFFD.c");
}

}  // namespace
}  // namespace parperf::report
