// The JSON report: its exact shape (the names other tools read) and that every value is the
// computed one, in seconds. The report model is built by hand; rendering only formats it.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "report/json_report.hpp"
#include "report/src_summary.hpp"
#include "unit/loop_balance_sample.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;
using format::SiteKind;

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

std::uint32_t kind_of(SiteKind kind) { return static_cast<std::uint32_t>(kind); }

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
  report.run.openmp_runtime = "LLVM OMP version: 5.0.20140926";
  report.threads = {{{0, 0}, format::ThreadKind::initial, true, 0},
                    {{0, 1}, format::ThreadKind::openmp_worker, false, 0.125}};
  report.summary = {"the implicit barrier of loop 'sweep' (solver.cpp:42) loses 5% of total time"};
  report.program_total_time = 0.8;

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
  c.desync = 0.011;
  c.waiting = 0.012;
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
  loop.identity.end_line = 47;
  loop.identity.function = "solve";
  root.children.push_back(loop);
  root.children.push_back(interval(3, "seq", 1));
  report.intervals.push_back(root);

  // Three SRC points: the implicit barrier of an OpenMP loop, the join barrier of a combined
  // `parallel for` (whose loop it ends), and a critical section.
  analysis::SrcPoint barrier;
  barrier.identity = {kind_of(SiteKind::omp_implicit_barrier),
                      "implicit barrier",
                      "heat.c",
                      58,
                      "relax",
                      kind_of(SiteKind::omp_loop)};
  barrier.interval = {kind_of(SiteKind::omp_loop), "loop", "heat.c", 58, 0, 64, "relax"};
  barrier.count = 8;
  barrier.total = 0.05;
  barrier.wait = 0.002;
  barrier.wait_max = 0.001;
  barrier.sync = 0.038;
  barrier.sync_max = 0.01;
  barrier.imbalance = 1.25;
  barrier.locations = {{0, 0}, {0, 1}};
  analysis::SrcPoint join;
  join.identity = {kind_of(SiteKind::omp_join_barrier), "implicit barrier", "heat.c", 80, "smooth",
                   kind_of(SiteKind::omp_parallel)};
  join.interval = {kind_of(SiteKind::omp_parallel), "parallel", "heat.c", 80};
  join.combined_construct = analysis::IntervalIdentity{kind_of(SiteKind::omp_loop), "loop", "heat.c", 80};
  join.count = 4;
  join.sync = 0.004;
  join.locations = {{0, 0}};
  analysis::SrcPoint critical;
  critical.identity = {kind_of(SiteKind::omp_critical), "critical", "heat.c", 70, "relax", 0};
  critical.interval = {kind_of(SiteKind::omp_parallel), "parallel", "heat.c", 57};
  critical.count = 3;
  critical.total = 0.006;
  critical.wait = 0.003;
  critical.wait_max = 0.0015;
  critical.locations = {{0, 1}};
  report.src_points = {barrier, join, critical};
  return report;
}

TEST(report_json, TheTopLevelAndTheRunHaveExactlyTheDocumentedFields) {
  json j = render_json(sample_report());
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"parperf_report", "run", "threads", "summary", "findings",
                                               "intervals", "src_points", "loops", "mpi", "samples"}));
  EXPECT_EQ(j["parperf_report"], 1);
  EXPECT_TRUE(j["samples"].is_null()) << "a run recorded without --sample has no samples";
  const json& run = j["run"];
  EXPECT_EQ(keys_of(run),
            (std::set<std::string>{
                "directory", "command", "host", "started", "wall_time", "processes", "world_size", "threads",
                "unit", "view_rank", "end_reasons", "missing_ranks", "slowest_rank", "openmp_runtime",
                "openmp_runtime_substituted", "mpi", "one_sided_traffic", "probe_compensation", "warnings"}));
  EXPECT_EQ(run["directory"], "/runs/a");
  EXPECT_EQ(run["command"], "./a 1");
  EXPECT_EQ(run["host"], "");
  EXPECT_TRUE(run["started"].is_null());  // no run.json
  EXPECT_TRUE(run["wall_time"].is_null());
  EXPECT_EQ(run["processes"], 2);
  EXPECT_EQ(run["threads"], 4);
  EXPECT_EQ(run["unit"], "rank");
  EXPECT_EQ(run["warnings"].size(), 1u);
  EXPECT_EQ(run["end_reasons"][0],
            (json{{"rank", 0}, {"file", "profile.0.ppf"}, {"reason", "exit"}, {"signal", nullptr}}));
  EXPECT_EQ(run["end_reasons"][1]["reason"], "signal");
  EXPECT_EQ(run["end_reasons"][1]["signal"], 11);
  EXPECT_EQ(run["openmp_runtime"], "LLVM OMP version: 5.0.20140926");
  EXPECT_EQ(run["openmp_runtime_substituted"], false);
  EXPECT_EQ(j["summary"],
            (json{"the implicit barrier of loop 'sweep' (solver.cpp:42) loses 5% of total time"}));
}

// The sampled call paths (docs/report.md, "samples"): per interval the functions with their self and
// inclusive samples and file:line, the call paths and each processor's top function.
TEST(report_json, SamplesHaveTheDocumentedFields) {
  Report report = sample_report();
  analysis::SampleProfile& samples = report.samples;
  samples.sampled = true;
  samples.wall_clock = true;
  samples.period_ns = 2'000'000;
  samples.samples = 800;
  samples.dropped = 3;
  analysis::IntervalSamples interval;
  interval.interval = 2;
  interval.identity.name = "sweep";
  interval.path = {"program", "sweep"};
  interval.samples = 400;
  interval.functions = {{"f", "/src/a.c", 12, 300, 310}, {"g", "/src/a.c", 20, 100, 100}};
  interval.paths = {{{"main", "f"}, 300}};
  interval.processors = {{0, "f", 150, 200}, {1, "g", 100, 200}};
  samples.intervals = {interval};
  samples.warnings = {"sampled functions unnamed: /lib/x.so: no such file"};
  const json j = render_json(report)["samples"];
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"clock", "period", "source", "effective_rate", "samples",
                                               "dropped", "not_unwound", "start_up", "shut_down",
                                               "model_threads", "intervals", "warnings"}));
  EXPECT_EQ(j["clock"], "wall");
  EXPECT_EQ(j["source"], "timer");
  EXPECT_TRUE(j["effective_rate"].is_null()) << "wall-clock samples have no rate per CPU second";
  EXPECT_DOUBLE_EQ(j["period"].get<double>(), 0.002);
  EXPECT_EQ(j["dropped"], 3);
  const json& i = j["intervals"][0];
  EXPECT_EQ(keys_of(i), (std::set<std::string>{"interval", "name", "path", "samples", "ranked", "functions",
                                               "paths", "processors"}));
  EXPECT_EQ(i["path"], (json{"program", "sweep"}));
  EXPECT_EQ(keys_of(i["functions"][0]),
            (std::set<std::string>{"function", "file", "line", "self", "inclusive", "self_share",
                                   "self_interval", "inclusive_share", "inclusive_interval"}));
  EXPECT_EQ(i["functions"][0]["inclusive"], 310);
  EXPECT_EQ(i["paths"][0], (json{{"frames", {"main", "f"}}, {"samples", 300}}));
  EXPECT_EQ(keys_of(i["processors"][1]), (std::set<std::string>{"processor", "samples", "function", "self"}));
  EXPECT_EQ(i["processors"][1]["function"], "g");
}

// The structured findings (docs/report.md, docs/diagnosis.md): stable keys, the text report's own
// words, the numbers the rule judged by.
TEST(report_json, FindingsHaveTheDocumentedFieldsAndTheTextReportsWords) {
  Report report = sample_report();
  analysis::Finding barrier;
  barrier.kind = analysis::FindingKind::preemption;
  barrier.remedy = analysis::Remedy::fewer_threads_than_cores;
  barrier.src_point = report.src_points[0];
  barrier.share = 0.05;
  barrier.estimated_gain = 0.04;
  barrier.evidence = {{"lost", 0.04}, {"share", 0.05}, {"max_over_mean", 1.07}, {"on_cpu_share", 0.7}};
  analysis::Finding sequential;
  sequential.kind = analysis::FindingKind::sequential_code;
  sequential.share = 0.02;
  report.findings = {barrier, sequential};
  report.summary = main_findings_text(report.findings);
  const json findings = render_json(report)["findings"];
  ASSERT_EQ(findings.size(), 2u);
  for (const json& f : findings)
    EXPECT_EQ(keys_of(f),
              (std::set<std::string>{"rule", "share", "estimated_gain", "text", "interval", "location",
                                     "evidence", "remedy", "sampled_cause", "replayed_gain", "replay"}));
  EXPECT_EQ(findings[0]["rule"], "preemption");
  EXPECT_EQ(findings[0]["remedy"], "fewer_threads_than_cores");
  EXPECT_DOUBLE_EQ(findings[0]["estimated_gain"].get<double>(), 0.04);
  EXPECT_EQ(findings[0]["text"], report.summary[0]) << "the JSON says what the text report says";
  EXPECT_EQ(findings[0]["location"], (json{{"file", "heat.c"}, {"line", 58}}));
  EXPECT_EQ(findings[0]["interval"],
            (json{{"kind", "omp_loop"}, {"name", "loop"}, {"file", "heat.c"}, {"line", 58}}));
  EXPECT_EQ(findings[0]["evidence"],
            (json{{"lost", 0.04}, {"share", 0.05}, {"max_over_mean", 1.07}, {"on_cpu_share", 0.7}}));
  EXPECT_EQ(findings[1]["rule"], "sequential_code");
  EXPECT_TRUE(findings[1]["remedy"].is_null());
  EXPECT_TRUE(findings[1]["location"].is_null());
  EXPECT_TRUE(findings[1]["interval"].is_null());
  EXPECT_EQ(findings[1]["text"], report.summary[1]);
  EXPECT_TRUE(findings[0]["sampled_cause"].is_null()) << "an unsampled run's findings have no sampled cause";
}

// A finding whose samples name the late thread's function (docs/diagnosis.md, "Sampled causes"):
// the structured `sampled_cause`, and the same words in the text.
TEST(report_json, SampledCauseHasTheDocumentedFields) {
  Report report = sample_report();
  analysis::Finding barrier;
  barrier.kind = analysis::FindingKind::unbalanced_barrier;
  barrier.src_point = report.src_points[0];
  barrier.share = 0.3;
  analysis::SampledCause cause;
  cause.wall_clock = true;
  cause.intervals = {1};
  cause.late = {0};
  cause.waiting = {1, 2, 3};
  cause.late_samples = 1000;
  cause.waiting_samples = 3000;
  cause.functions = {{"f", "/src/stencil.c", 12, 800, 60, 0.8, 0.02}};
  cause.waiting_in = analysis::ComparedFunction{"__kmp_wait", "", 0, 0, 2400, 0.0, 0.8};
  barrier.sampled_cause = cause;
  report.findings = {barrier};
  report.summary = main_findings_text(report.findings);
  const json f = render_json(report)["findings"][0];
  const json& c = f["sampled_cause"];
  EXPECT_EQ(keys_of(c),
            (std::set<std::string>{"clock", "unit", "intervals", "late", "waiting", "late_samples",
                                   "waiting_samples", "functions", "waiting_in"}));
  EXPECT_EQ(c["clock"], "wall");
  EXPECT_EQ(c["unit"], "thread");
  EXPECT_EQ(c["late"], (json{0}));
  EXPECT_EQ(keys_of(c["functions"][0]),
            (std::set<std::string>{"function", "file", "line", "late_samples", "waiting_samples",
                                   "late_share", "waiting_share"}));
  EXPECT_EQ(c["functions"][0]["function"], "f");
  EXPECT_EQ(c["waiting_in"]["function"], "__kmp_wait");
  const std::string text = f["text"].get<std::string>();
  EXPECT_NE(text.find("thread 0 spends 80 % of its samples in f (stencil.c:12), which threads 1-3 hardly run "
                      "(2 %); threads 1-3 wait in __kmp_wait, 80 % of their samples"),
            std::string::npos)
      << text;
}

TEST(report_json, RunWithoutOpenMpHasAnEmptyRuntimeAndEmptyLists) {
  Report report = sample_report();
  report.run.openmp_runtime.clear();
  report.threads.clear();
  report.summary.clear();
  report.src_points.clear();
  json j = render_json(report);
  EXPECT_EQ(j["run"]["openmp_runtime"], "");
  EXPECT_TRUE(j["threads"].is_array() && j["threads"].empty());
  EXPECT_TRUE(j["summary"].is_array() && j["summary"].empty());
  EXPECT_TRUE(j["src_points"].is_array() && j["src_points"].empty());
}

TEST(report_json, ThreadsSayWhatEachThreadIsAndHowLongItWasParked) {
  json threads = render_json(sample_report())["threads"];
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(keys_of(threads[0]), (std::set<std::string>{"rank", "thread", "kind", "master", "parked"}));
  EXPECT_EQ(threads[0],
            (json{{"rank", 0}, {"thread", 0}, {"kind", "initial"}, {"master", true}, {"parked", 0.0}}));
  EXPECT_EQ(threads[1]["thread"], 1);
  EXPECT_EQ(threads[1]["kind"], "openmp_worker");
  EXPECT_EQ(threads[1]["master"], false);
  EXPECT_DOUBLE_EQ(threads[1]["parked"].get<double>(), 0.125);
}

TEST(report_json, SrcPointsHaveTheDocumentedFieldsAndDerivedFigures) {
  json points = render_json(sample_report())["src_points"];
  ASSERT_EQ(points.size(), 3u);
  const json& barrier = points[0];
  EXPECT_EQ(keys_of(barrier), (std::set<std::string>{"kind",
                                                     "name",
                                                     "description",
                                                     "file",
                                                     "line",
                                                     "function",
                                                     "construct",
                                                     "interval",
                                                     "combined_construct",
                                                     "count",
                                                     "total",
                                                     "wait",
                                                     "wait_mean",
                                                     "wait_max",
                                                     "sync",
                                                     "sync_mean",
                                                     "sync_max",
                                                     "starts",
                                                     "lost",
                                                     "lost_share",
                                                     "imbalance",
                                                     "synchronization",
                                                     "time_variation",
                                                     "overlap",
                                                     "arrival_spread",
                                                     "bytes",
                                                     "locations"}));
  EXPECT_EQ(barrier["kind"], "omp_implicit_barrier");
  EXPECT_EQ(barrier["name"], "implicit barrier");
  EXPECT_EQ(barrier["description"], src_point_text(sample_report().src_points[0]))
      << "the point in words, as the summary names it";
  EXPECT_EQ(barrier["file"], "heat.c");
  EXPECT_EQ(barrier["line"], 58);
  EXPECT_EQ(barrier["function"], "relax");
  EXPECT_EQ(barrier["construct"], "omp_loop");
  EXPECT_EQ(barrier["interval"], (json{{"kind", "omp_loop"}, {"name", "loop"}, {"line", 58}}));
  EXPECT_TRUE(barrier["combined_construct"].is_null());
  EXPECT_EQ(barrier["count"], 8);
  EXPECT_DOUBLE_EQ(barrier["total"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(barrier["wait"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(barrier["wait_mean"].get<double>(), 0.002 / 8);
  EXPECT_DOUBLE_EQ(barrier["wait_max"].get<double>(), 0.001);
  EXPECT_DOUBLE_EQ(barrier["sync"].get<double>(), 0.038);
  EXPECT_DOUBLE_EQ(barrier["sync_mean"].get<double>(), 0.038 / 8);
  EXPECT_DOUBLE_EQ(barrier["sync_max"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(barrier["lost"].get<double>(), 0.04) << "lost = wait + sync";
  EXPECT_DOUBLE_EQ(barrier["lost_share"].get<double>(), 0.05) << "lost / the program's total time (0.8 s)";
  EXPECT_DOUBLE_EQ(barrier["imbalance"].get<double>(), 1.25);
  EXPECT_EQ(barrier["locations"], (json{{{"rank", 0}, {"thread", 0}}, {{"rank", 0}, {"thread", 1}}}));

  const json& join = points[1];
  EXPECT_EQ(join["kind"], "omp_join_barrier");
  EXPECT_EQ(join["construct"], "omp_parallel");
  EXPECT_EQ(join["combined_construct"], (json{{"kind", "omp_loop"}, {"file", "heat.c"}, {"line", 80}}));

  const json& critical = points[2];
  EXPECT_EQ(critical["kind"], "omp_critical");
  EXPECT_TRUE(critical["construct"].is_null()) << "only a construct's barrier names a construct";
  EXPECT_TRUE(critical["combined_construct"].is_null());
  EXPECT_EQ(critical["interval"]["kind"], "omp_parallel");
  EXPECT_DOUBLE_EQ(critical["sync"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(critical["lost"].get<double>(), 0.003);
}

TEST(report_json, SrcPointShareAndMeansAreZeroWhenThereIsNothingToDivideBy) {
  Report report = sample_report();
  report.program_total_time = 0;
  report.src_points[0].count = 0;
  const json barrier = render_json(report)["src_points"][0];
  EXPECT_DOUBLE_EQ(barrier["lost_share"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(barrier["wait_mean"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(barrier["sync_mean"].get<double>(), 0.0);
}

TEST(report_json, AnIntervalHasEveryCharacteristicUnderItsSnakeCaseName) {
  json root = render_json(sample_report())["intervals"].at(0);
  EXPECT_EQ(root["kind"], "program");
  const json& loop = root["children"].at(0);
  EXPECT_EQ(keys_of(loop), (std::set<std::string>{"kind",
                                                  "name",
                                                  "file",
                                                  "line",
                                                  "end_line",
                                                  "function",
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
                                                  "desync_time",
                                                  "waiting_time",
                                                  "load_imbalance",
                                                  "synchronization",
                                                  "time_variation",
                                                  "overlap",
                                                  "startup_time",
                                                  "shutdown_time",
                                                  "os_cpu_user",
                                                  "os_cpu_sys",
                                                  "comparative",
                                                  "per_processor",
                                                  "iterations",
                                                  "events",
                                                  "communication_classes",
                                                  "mpi_calls",
                                                  "diagnosis",
                                                  "children"}));
  EXPECT_EQ(loop["kind"], "parallel_loop");
  EXPECT_EQ(loop["name"], "sweep");
  EXPECT_EQ(loop["file"], "solver.cpp");
  EXPECT_EQ(loop["line"], 42);
  EXPECT_EQ(loop["end_line"], 47);
  EXPECT_EQ(loop["function"], "solve");
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
  EXPECT_DOUBLE_EQ(loop["desync_time"].get<double>(), 0.011);
  EXPECT_DOUBLE_EQ(loop["waiting_time"].get<double>(), 0.012);
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
  EXPECT_EQ(root["end_line"], 0) << "no end line known for an annotated interval";
  EXPECT_EQ(root["function"], "");
}

TEST(report_json, OpenMpIntervalKindsHaveTheirFormatKeys) {
  Report report = sample_report();
  const std::pair<SiteKind, const char*> kinds[] = {
      {SiteKind::omp_parallel, "omp_parallel"},   {SiteKind::omp_loop, "omp_loop"},
      {SiteKind::omp_sections, "omp_sections"},   {SiteKind::omp_single, "omp_single"},
      {SiteKind::omp_workshare, "omp_workshare"}, {SiteKind::omp_distribute, "omp_distribute"},
      {SiteKind::omp_taskloop, "omp_taskloop"},   {SiteKind::omp_masked, "omp_masked"},
      {SiteKind::omp_task, "omp_task"},           {SiteKind::omp_scope, "omp_scope"}};
  for (const auto& [kind, key] : kinds) {
    report.intervals[0].children[1].identity.kind = kind_of(kind);
    EXPECT_EQ(render_json(report)["intervals"][0]["children"][1]["kind"], key);
  }
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

// A loop's balance (analysis/loop_balance.hpp) under `loop_balance`, times in seconds, with its
// finding; and the run's loops innermost first under `loops`.
TEST(report_json, ALoopIntervalHasItsBalanceAndTheRunItsLoopsInnermostFirst) {
  Report report = sample_report();
  const analysis::LoopBalance loop = test::sample_loop_balance(report.intervals[0].children[0].identity);
  analysis::Finding finding;
  finding.kind = analysis::FindingKind::unbalanced_loop;
  finding.remedy = analysis::Remedy::cost_aware_partition;
  finding.loop = loop;
  report.intervals[0].children[0].loop_balance = loop;
  report.intervals[0].children[0].loop_finding = finding;
  report.loops = {loop};
  const json j = render_json(report);
  const json& balance = j["intervals"][0]["children"][0]["loop_balance"];
  EXPECT_EQ(keys_of(balance), (std::set<std::string>{"marks",
                                                     "count",
                                                     "total",
                                                     "mean",
                                                     "min",
                                                     "max",
                                                     "balance_degree",
                                                     "relative_degree",
                                                     "alpha",
                                                     "balanced",
                                                     "std_dev",
                                                     "coefficient_of_variation",
                                                     "percentiles",
                                                     "histogram",
                                                     "inner_loop_depth",
                                                     "processors",
                                                     "processor_min",
                                                     "processor_max",
                                                     "processor_mean",
                                                     "min_processor",
                                                     "max_processor",
                                                     "processor_imbalance",
                                                     "balance_gain",
                                                     "branches",
                                                     "branch_cost",
                                                     "finding"}));
  EXPECT_EQ(balance["marks"], "iterations");
  EXPECT_EQ(balance["balanced"], false);
  EXPECT_DOUBLE_EQ(balance["balance_degree"].get<double>(), 0.0095);
  EXPECT_DOUBLE_EQ(balance["alpha"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(balance["percentiles"]["p90"].get<double>(), 0.0185);
  ASSERT_EQ(balance["histogram"].size(), 2u) << "the non-empty buckets only";
  EXPECT_DOUBLE_EQ(balance["histogram"][0]["lower"].get<double>(), 786432e-9) << "1.5 x 2^19 ns";
  EXPECT_DOUBLE_EQ(balance["histogram"][0]["upper"].get<double>(), 1048576e-9);
  EXPECT_TRUE(balance["histogram"][1]["upper"].is_null()) << "the last bucket is open";
  EXPECT_EQ(balance["branches"][0]["frequency"], 3);
  EXPECT_DOUBLE_EQ(balance["branch_cost"].get<double>(), 0.003);
  EXPECT_EQ(balance["finding"]["kind"], "unbalanced_loop");
  EXPECT_EQ(balance["finding"]["remedy"], "cost_aware_partition");
  EXPECT_NE(balance["finding"]["text"].get<std::string>().find("solver.cpp (42:47)"), std::string::npos)
      << balance["finding"]["text"];
  ASSERT_EQ(j["loops"].size(), 1u);
  EXPECT_EQ(j["loops"][0]["name"], "sweep");
  EXPECT_EQ(j["loops"][0]["inner_loop_depth"], 0);
  EXPECT_FALSE(j["intervals"][0].contains("loop_balance")) << "only intervals with iteration marks have one";
}

}  // namespace
}  // namespace parperf::report
