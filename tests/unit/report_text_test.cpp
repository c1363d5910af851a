// The text protocol: the run summary (and what it says about crashed and flushed runs), each
// interval's header and sections in the details, and which lines appear only when they carry
// information. The report model is built by hand; rendering only formats it. The overview's tables
// are report_overview_test's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "analysis/analysis.hpp"
#include "analysis/run_data.hpp"
#include "report/report_builder.hpp"
#include "report/text_protocol.hpp"
#include "report/time_format.hpp"
#include "unit/format_test_profiles.hpp"
#include "unit/loop_balance_sample.hpp"
#include "unit/profile_values.hpp"
#include "unit/report_text_options.hpp"

namespace parperf::report {
namespace {

testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "the protocol lacks \"" << part << "\":\n" << text;
}

// The full protocol of every interval, after the overview (parperf report --details).
const TextOptions kDetails = test::with_details();

std::size_t test_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

Report sample_report() {
  Report report;
  report.run.directory = "/runs/a";
  report.run.command = "./a 1";
  report.run.processes = 1;
  report.run.world_size = 1;
  report.run.threads = 2;
  report.run.end_reasons = {{0, "profile.0.ppf", format::EndReason::exit, 0}};
  ReportInterval root;
  root.identity = {0, "a", "", 0, 0};
  root.count = 2;
  root.diagnosis = "no significant loss: efficiency 100%";
  ReportInterval solve;
  solve.identity = {1, "solve", "solver.cpp", 42, 7};
  solve.level = 1;
  solve.count = 2;
  analysis::Characteristics& c = solve.characteristics;
  c.efficiency = 2.0 / 3.0;
  c.execution_time = 0.18;
  c.processors = 2;
  c.threads = 2;
  c.total_time = 0.36;
  c.productive_time = c.productive_cpu = 0.24;
  c.lost_time = c.idle_time = 0.12;
  c.load_imbalance = 0.12;
  analysis::ProcessorFigures row;
  row.processor = 1;
  row.thread = 1;
  row.execution_time = 0.18;
  solve.per_processor = {row};
  solve.diagnosis =
      "idle time is 33% of total: processor 0 finishes 120 ms before processor 1 (load imbalance)";
  root.children.push_back(solve);
  report.intervals.push_back(root);
  return report;
}

TEST(report_text, TheRunSummaryComesFirst) {
  std::string text = render_text(sample_report());
  EXPECT_EQ(text.rfind("parperf report: /runs/a\n", 0), 0u) << text;
  EXPECT_TRUE(contains(text, "command     ./a 1"));
  EXPECT_TRUE(contains(text, "processes   1\n"));
  EXPECT_TRUE(contains(text, "threads     2\n"));
  EXPECT_TRUE(contains(text, "processor   thread: each thread is one processor"));
  EXPECT_TRUE(contains(text, "rank 0 (profile.0.ppf): exit"));
  EXPECT_FALSE(contains(text, "CRASHED"));
}

TEST(report_text, ACrashedRunIsSaidToBeCoveredOnlyUpToTheCrash) {
  Report report = sample_report();
  report.run.end_reasons[0].reason = format::EndReason::signal;
  report.run.end_reasons[0].signal = 6;
  report.run.warnings = {"profile.1.ppf: missing (the run has 2 processes)"};
  report.run.world_size = 2;
  std::string text = render_text(report);
  EXPECT_TRUE(contains(text, "signal 6 (SIGABRT)"));
  EXPECT_TRUE(contains(
      text, "CRASHED: rank 0 was killed by SIGABRT; its figures cover the run only up to that moment"));
  EXPECT_TRUE(contains(text, "processes   1 of 2"));
  EXPECT_TRUE(contains(text, "warning: profile.1.ppf: missing (the run has 2 processes)"));
}

TEST(report_text, AFlushedProfileIsSaidToStopAtTheFlush) {
  Report report = sample_report();
  report.run.end_reasons[0].reason = format::EndReason::flush;
  EXPECT_TRUE(contains(render_text(report), "NOT FINISHED: rank 0 wrote its profile with parperf_flush()"));
}

// A run of `ranks` processes, every one of which ended with `exit`.
Report run_of_ranks(std::int64_t ranks) {
  Report report = sample_report();
  report.run.processes = report.run.world_size = ranks;
  report.run.end_reasons.clear();
  for (std::int64_t rank = 0; rank < ranks; ++rank)
    report.run.end_reasons.push_back({rank, fmt::format("profile.{}.ppf", rank), format::EndReason::exit, 0});
  return report;
}

std::size_t lines_with(const std::string& text, const std::string& part) {
  std::size_t lines = 0;
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (text.substr(at, end - at).find(part) != std::string::npos) ++lines;
  }
  return lines;
}

TEST(report_text, HowTheRanksEndedTakesOneLinePerWayOfEndingNotOnePerRank) {
  const std::string text = render_text(run_of_ranks(1000));
  EXPECT_EQ(lines_with(text, "  ended "), 1u) << "1 000 ranks that exited: one line, not 1 000\n" << text;
  EXPECT_TRUE(contains(text, "ended       all 1000 ranks: exit\n"));
  Report partial = run_of_ranks(4);
  partial.run.world_size = 5;  // rank 4 left no profile: "all" would say more than the profiles do
  EXPECT_TRUE(contains(render_text(partial), "ended       ranks 0-3: exit\n"));

  Report crashed = run_of_ranks(32);
  for (std::int64_t rank : {3, 7}) {
    crashed.run.end_reasons[static_cast<std::size_t>(rank)].reason = format::EndReason::signal;
    crashed.run.end_reasons[static_cast<std::size_t>(rank)].signal = 11;
  }
  const std::string mixed = render_text(crashed);
  EXPECT_EQ(lines_with(mixed, "  ended "), 2u) << "two ways of ending, two lines\n" << mixed;
  EXPECT_TRUE(contains(mixed, "ended       ranks 0-2, 4-6, 8-31: exit\n"));
  EXPECT_TRUE(contains(mixed, "ended       ranks 3, 7: signal 11 (SIGSEGV)\n"));
  EXPECT_EQ(lines_with(mixed, "CRASHED"), 1u) << mixed;
  EXPECT_TRUE(contains(mixed,
                       "CRASHED: ranks 3, 7 were killed by SIGSEGV; their figures cover the run only up "
                       "to that moment"));
}

TEST(report_text, AnSrcPointsLocationsAreRangesOfRanksAndThreadsNotOneItemPerLocation) {
  Report report = run_of_ranks(1000);
  analysis::SrcPoint barrier;
  barrier.identity.kind = static_cast<std::uint32_t>(format::SiteKind::mpi_barrier);
  barrier.identity.name = "MPI_Barrier";
  barrier.identity.file = "x.c";
  barrier.identity.line = 40;
  barrier.count = 1000;
  barrier.total = 1;
  barrier.wait = 0.5;  // lost time: the table shows it
  for (std::int64_t rank = 0; rank < 1000; ++rank) barrier.locations.push_back({rank, 0});
  report.src_points = {barrier};
  std::string text = render_text(report);
  EXPECT_TRUE(contains(text, "; ranks 0-999 (thread 0);")) << "1 000 ranks on thread 0: one range";
  EXPECT_LT(text.find("MPI_Barrier at x.c:40"), text.size());
  const std::size_t line = text.find("MPI_Barrier at x.c:40");
  EXPECT_LT(text.find('\n', line) - line, 120u) << "the point's line grows with the ranks:\n" << text;

  // A hybrid run: ranks 0-2 with four threads, rank 3 with one.
  report.run.processes = 4;
  report.src_points[0].locations.clear();
  for (std::int64_t rank = 0; rank < 4; ++rank)
    for (std::uint32_t thread = 0; thread < (rank < 3 ? 4u : 1u); ++thread)
      report.src_points[0].locations.push_back({rank, thread});
  EXPECT_TRUE(contains(render_text(report), "; ranks 0-2 (threads 0-3), rank 3 (thread 0);"));

  // One process: its threads.
  report.run.processes = 1;
  report.src_points[0].locations = {{0, 0}, {0, 1}, {0, 2}};
  EXPECT_TRUE(contains(render_text(report), "; threads 0-2;"));
}

TEST(report_text, EachIntervalHasItsHeaderAndSectionsInTheDetails) {
  EXPECT_FALSE(contains(render_text(sample_report()), "== INTERVAL ")) << "the overview alone by default";
  std::string text = render_text(sample_report(), kDetails);
  EXPECT_TRUE(contains(text, "== INTERVAL program \"a\"  level 0  entries 2\n"));
  EXPECT_TRUE(contains(text, "== INTERVAL user \"solve\"  solver.cpp:42  value 7  level 1  entries 2\n"));
  for (const char* heading :
       {"--- main characteristics ---", "Parallelization efficiency  0.667 (66.7%)", "Execution time",
        "Processors", "Threads", "Total time", "Productive time", "CPU", "Sys", "I/O", "Lost time",
        "Insufficient parallelism", "Communication", "Real sync", "Starts", "Idle time", "OS CPU time",
        "--- comparative characteristics ---", "diagnosis: idle time is 33% of total"}) {
    EXPECT_TRUE(contains(text, heading));
  }
  EXPECT_TRUE(contains(text, "Execution time              0.180000 s"));
  EXPECT_TRUE(contains(text, "Load imbalance              0.120000 s")) << "shown because it is not zero";
  EXPECT_FALSE(contains(text, "Synchronization")) << "zero potential losses are left out";
  EXPECT_FALSE(contains(text, "Time variation"));
  EXPECT_FALSE(contains(text, "Overlap"));
  EXPECT_FALSE(contains(text, "--- loop iterations ---"));
  EXPECT_FALSE(contains(text, "--- user events ---"));
}

TEST(report_text, PerProcessorRowsOnlyWhenAsked) {
  Report report = sample_report();
  EXPECT_FALSE(contains(render_text(report, kDetails), "--- per-processor characteristics"));
  report.show_per_processor = true;
  std::string text = render_text(report, kDetails);
  EXPECT_TRUE(contains(text, "--- per-processor characteristics (seconds) ---"));
  EXPECT_TRUE(contains(text, "      1     0      1        0    0.180000"));
}

TEST(report_text, AnOpenIntervalIsMarked) {
  Report report = sample_report();
  report.intervals[0].children[0].open = true;
  EXPECT_TRUE(contains(render_text(report), "user \"solve\"  solver.cpp:42  OPEN\n")) << "in the overview";
  EXPECT_TRUE(
      contains(render_text(report, kDetails), "[OPEN: an entry had not ended when the profile was written]"));
}

TEST(report_text, LoopIterationsAndUserEvents) {
  Report report = sample_report();
  ReportInterval& solve = report.intervals[0].children[0];
  solve.iterations = analysis::IterationTotals{10, 0.2, 0.02, 0.01, 0.04};
  analysis::EventTotals send;
  send.name = "send";
  send.starts = send.ends = 2;
  send.total = 0.004;
  send.first_description = "send 64 bytes";
  solve.events = {send};
  std::string text = render_text(report, kDetails);
  EXPECT_TRUE(contains(text, "--- loop iterations ---\n  count 10  total 0.200000 s  mean 0.020000 s"));
  EXPECT_TRUE(
      contains(text, "--- user events ---\n  \"send\"  starts 2  ends 2  atomics 0  total 0.004000 s"));
  EXPECT_TRUE(contains(text, "first: \"send 64 bytes\""));
}

TEST(report_text, ALoopHasItsBalanceBlockAndTheRunItsLoopList) {
  Report report = sample_report();
  ReportInterval& solve = report.intervals[0].children[0];
  const analysis::LoopBalance loop = test::sample_loop_balance(solve.identity);
  solve.loop_balance = loop;
  report.loops = {loop};
  EXPECT_TRUE(contains(render_text(report), "== LOOP BALANCE, innermost loops first")) << "in the overview";
  const std::string text = render_text(report, kDetails);
  EXPECT_TRUE(
      contains(text, "--- loop balance (iterations) ---\n  iterations                  20  mean 0.010500 s"));
  EXPECT_TRUE(contains(text, "Balance degree D            0.009500 s  D/mean 0.905  UNBALANCED (alpha 0.1"));
  EXPECT_TRUE(contains(text, "Standard deviation          0.005770 s  coefficient of variation 0.550"));
  EXPECT_TRUE(contains(text, "p50 0.010500 s  p90 0.018500 s  p99 0.019900 s"));
  EXPECT_TRUE(contains(text, "Branch cost                 0.003000 s"));
  EXPECT_TRUE(contains(text, "branch \"cheap\""));
  EXPECT_TRUE(contains(text, "== LOOP BALANCE, innermost loops first"));
}

TEST(report_text, AnEmptySelectionSaysSo) {
  Report report = sample_report();
  report.intervals.clear();
  EXPECT_TRUE(contains(render_text(report), "No interval matches the selection."));
}

TEST(report_text, TimesAreSecondsToTheMicrosecond) {
  EXPECT_EQ(format_seconds(0), "0");
  EXPECT_EQ(format_seconds(0.18), "0.180000");
  EXPECT_EQ(format_seconds(12.5), "12.500000");
  EXPECT_EQ(format_seconds(0.0000421), "0.000042100") << "below 0.1 ms, to the nanosecond";
  EXPECT_EQ(format_duration(0.12), "120 ms");
  EXPECT_EQ(format_duration(2.5), "2.50 s");
  EXPECT_EQ(format_duration(0.0000421), "42.1 µs");
  EXPECT_EQ(format_percent(1.0 / 3.0), "33%");
  EXPECT_EQ(format_percent(0.004), "0.4%");
  // A what-if's extreme network (latency 1e290 s) predicts such times: a few digits, not hundreds.
  EXPECT_EQ(format_seconds(3e290), "3e+290");
  EXPECT_EQ(format_seconds(-2.5e12), "-2.5e+12");
  EXPECT_EQ(format_seconds(999'999'999.5), "999999999.500000") << "up to 30 years as every other time";
  EXPECT_EQ(format_duration(3e290), "3e+290 s");
  EXPECT_EQ(format_percent(-9.9e289), "-9.9e+291%");
}

// Names come from the program (and, in a damaged or forged profile, from anyone): one with a
// terminal escape, a bell, a carriage return and a newline must reach the text report escaped, or
// it recolours or clears the reader's terminal and forges report lines.
std::string text_report_with_names(const std::string& name) {
  using format::SiteKind;
  format::Profile p = test::minimal_profile();
  p.process.command_line = "./" + name;
  p.process.openmp_runtime = name;
  p.sites = {
      parperf::test::make_site(0, 0, 0, "program", ""),
      parperf::test::make_site(1, static_cast<std::uint32_t>(SiteKind::user), 12, name, name + ".c"),
      parperf::test::make_site(2, static_cast<std::uint32_t>(SiteKind::omp_critical), 14, name, name + ".c")};
  p.events = {format::Event{3, name, name}};
  format::Thread& t = p.threads[0];
  t.end_ns = 2'000'000'000;
  t.nodes[0].sum_ns = 2'000'000'000;
  format::Node interval;
  interval.parent = 0;
  interval.site = 1;
  interval.count = 1;
  interval.sum_ns = interval.min_ns = interval.max_ns = 1'000'000'000;
  interval.events.push_back(parperf::test::make_event_stats(3, 1, 1, 0, 10'000, 10'000, 10'000, name));
  format::OperationStats critical;
  critical.site = 2;
  critical.count = 1;
  critical.sum_ns = critical.min_ns = critical.max_ns = 400'000'000;
  critical.wait_ns = critical.wait_max_ns = 300'000'000;
  interval.operations.push_back(critical);
  t.nodes.push_back(interval);

  analysis::RunData run;
  run.directory = "/runs/" + name;
  run.profiles = {p};
  run.profile_files = {"profile.0.ppf"};
  run.warnings = {"run.json: " + name};
  return render_text(build_report(run, analysis::analyze(run)), kDetails);
}

TEST(report_text, ControlCharactersInNamesAreEscaped) {
  const std::string plain = text_report_with_names("solver");
  const std::string hostile = text_report_with_names("solver\x1b[2J\a\rFORGED\nparperf report: forged\x7f");
  for (char c : hostile) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_FALSE((byte < 0x20 && c != '\n') || byte == 0x7f)
        << "the text report holds the raw control character " << static_cast<int>(byte) << ":\n"
        << hostile;
  }
  EXPECT_EQ(test_lines(hostile), test_lines(plain)) << "a name's newline forged a line:\n" << hostile;
  EXPECT_TRUE(contains(hostile, "solver\\x1b[2J\\x07\\x0dFORGED\\nparperf report: forged\\x7f"));
  EXPECT_TRUE(contains(hostile, "== INTERVAL user \"solver\\x1b"));
  EXPECT_TRUE(contains(hostile, "  user \"solver\\x1b")) << "the overview's row";
}

}  // namespace
}  // namespace parperf::report
