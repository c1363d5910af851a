// The critical path and the root causes of waiting as the report renders them
// (report/dependency_report.hpp): the intervals the analysis judged off the path, and one sentence
// per cause of waiting, the same in the text section and in the findings.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/trace_findings.hpp"
#include "report/dependency_report.hpp"
#include "report/graph_links.hpp"
#include "report/src_summary.hpp"
#include "report/wait_states_report.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;
using test::TraceRunBuilder;

// An analysis of two ranks of one thread each, for the sections below to fill.
analysis::TraceAnalysis two_ranks() {
  analysis::TraceAnalysis a;
  auto graph = std::make_shared<analysis::ActivityGraph>();
  graph->locations = {{.rank = 0}, {.rank = 1}};
  a.graph = graph;
  a.ranks = 2;
  return a;
}

// A path of 100 ms: "stage" is 90 ms of it; "side" works 30 ms beside it and none on it, which the
// analysis judged off the path; "tiny" works 1 ms, too little to name.
analysis::TraceAnalysis path_with_a_hidden_interval() {
  analysis::TraceAnalysis a = two_ranks();
  analysis::CriticalPath& p = a.critical_path;
  p.length_ns = 100e6;
  p.intervals.push_back({{90e6, 0.9}, {"stage", 1, "pipe.c", 12}, 90e6, false});
  p.intervals.push_back({{0, 0}, {"side", 1, "pipe.c", 20}, 30e6, true});
  p.intervals.push_back({{0, 0}, {"tiny", 1, "pipe.c", 30}, 1e6, false});
  p.locations.push_back({{100e6, 1}, 1, 0});
  return a;
}

TEST(CriticalPathReport, TheTextAndTheJsonNameTheIntervalsTheAnalysisJudgedOffThePath) {
  const analysis::TraceAnalysis a = path_with_a_hidden_interval();
  const std::string text = critical_path_text(a);
  EXPECT_NE(text.find("'side' (user) at pipe.c:20 is off the path"), std::string::npos)
      << "'side' works 30 ms and none of it on the path: making it faster gains nothing\n"
      << text;
  EXPECT_EQ(text.find("'tiny' (user) at pipe.c:30 is off the path"), std::string::npos)
      << "'tiny' was not judged off the path\n"
      << text;
  const nlohmann::ordered_json j = critical_path_json(a.critical_path);
  EXPECT_EQ(j["intervals"][0].value("off_path", true), false) << j["intervals"][0];
  EXPECT_EQ(j["intervals"][1].value("off_path", false), true)
      << "report --json does not say 'side' is off the path: " << j["intervals"][1];
  EXPECT_NE(text.find("    rank 1 "), std::string::npos) << "two ranks of one thread: named by rank\n"
                                                         << text;
}

TEST(CriticalPathReport, TheTaskLinksAndThePiecesLeftUnlinkedAreCountedInTheTextAndTheJson) {
  analysis::TraceAnalysis a = path_with_a_hidden_interval();
  auto graph = std::make_shared<analysis::ActivityGraph>(*a.graph);
  graph->linked.task_creations = 3;
  graph->linked.task_waits = 2;
  graph->unlinked.task_pieces = 4;
  a.graph = graph;
  const std::string text = critical_path_text(a);
  for (const auto& [phrase, missing] :
       {std::pair("Dependencies linked: 3 task creations, 2 tasks waited for", "which task links it made"),
        std::pair("4 OpenMP task pieces without their task's creation", "that 4 task pieces are unlinked")})
    EXPECT_NE(text.find(phrase), std::string::npos) << "the report does not say " << missing << "\n" << text;
  const nlohmann::ordered_json j = dependencies_json(*a.graph);
  EXPECT_EQ(j["linked"]["task_creations"], 3) << j;
  EXPECT_EQ(j["linked"]["task_waits"], 2) << j;
  EXPECT_EQ(j["unlinked"]["task_pieces"], 4) << j;
  EXPECT_EQ(j["linked"]["messages"], 0) << "every kind is in the JSON, with or without links: " << j;
}

TEST(CriticalPathReport, APathThatRunsThroughNoIntervalSaysSoUnderItsIntervals) {
  analysis::TraceAnalysis a = path_with_a_hidden_interval();
  a.critical_path.intervals.clear();  // a program without annotations: only its MPI calls are traced
  const std::string text = critical_path_text(a);
  const std::string heading = "  Intervals on the path (time on it, share of it):\n";
  ASSERT_NE(text.find(heading), std::string::npos) << text;
  EXPECT_EQ(text.find(heading + "    none: no interval is on it"), text.find(heading))
      << "an empty list under the heading leaves the reader guessing\n"
      << text;
}

TEST(CriticalPathReport, AnUnexplainedStartUpIsSaidWhereTheIntervalsOffThePathWouldBe) {
  analysis::TraceAnalysis a = path_with_a_hidden_interval();
  for (analysis::PathInterval& i : a.critical_path.intervals)
    i.off_path = false;  // as the analysis leaves them
  a.critical_path.startup_ns = 30e6;
  a.critical_path.startup_unexplained = true;
  const std::string text = critical_path_text(a);
  EXPECT_NE(
      text.find("30 ms of the path (30%) is start-up: a location's time before its first event, which no "
                "traced dependency explains"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("so no interval is said to be off the path"), std::string::npos) << text;
  EXPECT_NEAR(critical_path_json(a.critical_path)["startup"].get<double>(), 0.03, 1e-12);
  a.critical_path.startup_unexplained = false;
  EXPECT_EQ(critical_path_text(a).find("start-up:"), std::string::npos)
      << "a start-up too short to matter is only an activity";
}

// 100 s of waiting, of which 1 s traced back to computation (rank 0's "work" 0.6 s, rank 1's code
// outside every interval 0.4 s): an oversubscribed run, whose waits trace back to time inside MPI
// calls while the ranks were not scheduled.
analysis::TraceAnalysis waits_mostly_behind_calls() {
  analysis::TraceAnalysis a = two_ranks();
  a.delays.waiting_ns = 100e9;
  a.delays.charged_ns = 1e9;
  a.delays.causes.push_back(
      {.rank = 0, .interval = {"work", 1, "pipe.c", 12}, .delay_ns = 0.6e9, .waiting = 1, .waits = 30});
  a.delays.causes.push_back({.rank = 1, .interval = {}, .delay_ns = 0.4e9, .waiting = 1, .waits = 20});
  return a;
}

TEST(DelayCausesReport, WaitingMostlyBehindCallsIsSaidAndItsComputationStillNamed) {
  analysis::TraceAnalysis a = waits_mostly_behind_calls();
  std::string text = delay_costs_text(a);
  EXPECT_NE(
      text.find("100.00 s of waiting in all; 1.00 s of it traced back to the computation that caused it (the "
                "rest to time inside MPI, OpenSHMEM or OpenMP calls"),
      std::string::npos)
      << "the report does not say what the 99 s not traced back to computation are\n"
      << text;
  EXPECT_NE(text.find("Rank 0's interval \"work\" at pipe.c:12 makes 1 other location wait 600 ms"),
            std::string::npos)
      << "each cause is under 1 % of all the waiting, yet they are all of the computation behind it\n"
      << text;
  EXPECT_NE(text.find("Rank 1's code outside every interval makes 1 other location wait 400 ms"),
            std::string::npos)
      << text;

  a.delays.charged_ns = 0;
  a.delays.causes.clear();
  text = delay_costs_text(a);
  EXPECT_NE(
      text.find(
          "100.00 s of waiting in all, none of it traced back to computation: all of it to time inside"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find(':', text.find("none of it")), text.find(": all of it"))
      << "no list follows, so no colon announces one\n"
      << text;
}

// Rank 0 works 100 ms in "work" (pipe.c:12), then sends; rank 1 waits for it from the start: rank
// 0's "work" made one other location wait about 100 ms.
analysis::TraceAnalysis late_work() {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto work = b.site(SiteKind::user, "work", "pipe.c", 12);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "pipe.c", 14);
  b.event({.kind = format::TraceEventKind::enter, .ticks = test::ms(0.1), .site = work})
      .event({.kind = format::TraceEventKind::leave, .ticks = test::ms(100), .site = work})
      .op(send, 100, 100.5, 1, 4, 64);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "pipe.c", 20);
  b.op(recv, 0.1, 100.6, 0, 4);
  return analysis::analyse_traces(b.build());
}

TEST(DelayCausesReport, TheTextSectionAndTheFindingsWordACauseWithTheSameSentence) {
  const analysis::TraceAnalysis a = late_work();
  const std::vector<std::string> sentences = delay_cause_sentences(a, 5);
  ASSERT_FALSE(sentences.empty()) << "rank 1 waited for rank 0's work, yet no cause of waiting is given";
  EXPECT_EQ(sentences[0].rfind("Rank 0's interval \"work\" at pipe.c:12 makes 1 other location wait ", 0), 0u)
      << sentences[0];
  const std::string text = delay_costs_text(a);
  EXPECT_NE(text.find(sentences[0]), std::string::npos) << "the text section words it otherwise:\n" << text;

  const std::vector<analysis::Finding> findings = analysis::delay_cause_findings(a, 0.2, 3);
  ASSERT_FALSE(findings.empty()) << "no delay_cause finding for rank 0's work";
  std::string finding = main_finding_text(findings[0]);
  ASSERT_FALSE(finding.empty());
  finding[0] = static_cast<char>(finding[0] - 'a' + 'A');
  EXPECT_EQ(finding.rfind(sentences[0], 0), 0u)
      << "the finding and the report word the same cause differently:\n  finding: " << finding
      << "\n  report:  " << sentences[0];
}

// One process of two threads of its own (no OpenMP): thread 0 runs "init" 0.1..100 ms, thread 1 is
// created then and runs "work" 100..300 ms. Nothing in the trace links them.
analysis::TraceAnalysis unlinked_threads() {
  TraceRunBuilder b;
  b.rank(0, 1);
  const auto init = b.site(SiteKind::user, "init", "t.c", 5);
  const auto work = b.site(SiteKind::user, "work", "t.c", 9);
  b.event({.kind = format::TraceEventKind::enter, .ticks = test::ms(0.1), .site = init})
      .event({.kind = format::TraceEventKind::leave, .ticks = test::ms(100), .site = init});
  b.event({.kind = format::TraceEventKind::enter, .ticks = test::ms(100), .site = work}, 1)
      .event({.kind = format::TraceEventKind::leave, .ticks = test::ms(300), .site = work}, 1);
  return analysis::analyse_traces(b.build());
}

TEST(IndependentLocations, ARunWhoseThreadsNoTracedDependencyLinksSaysSoAndPredictsNoGainForThem) {
  const analysis::TraceAnalysis a = unlinked_threads();
  ASSERT_TRUE(a.graph && a.graph->locations_independent());
  ASSERT_FALSE(a.warnings.empty());
  EXPECT_NE(a.warnings.back().find("the trace links no dependency between the run's 2 locations"),
            std::string::npos)
      << a.warnings.back();
  EXPECT_NE(wait_states_text(a).find("links no dependency"), std::string::npos)
      << "the report does not pass the warning on";
  // A finding about "work" would be replayed with it balanced: over independent threads that says
  // nothing of what the program's own synchronization made them wait for.
  analysis::Finding f;
  f.kind = analysis::FindingKind::idle_within_processes;
  f.interval = analysis::IntervalIdentity{.kind = 1, .name = "work", .file = "t.c", .line = 9};
  std::vector<analysis::Finding> findings{f};
  analysis::add_replayed_gains(findings, a);
  EXPECT_TRUE(findings[0].replay.empty()) << "a replay's gain was claimed: " << findings[0].replay;
  EXPECT_TRUE(a.critical_path.startup_unexplained) << "thread 1's 100 ms before its first event";

  EXPECT_FALSE(late_work().graph->locations_independent()) << "two ranks linked by their message";
}

}  // namespace
}  // namespace parperf::report
