// The report's wait-state section and JSON key (report/wait_states_report.hpp), from a hand-built
// traced run with one known Late Sender and a clock check that fails.
#include <gtest/gtest.h>

#include "analysis/trace/trace_analysis.hpp"
#include "report/wait_states_report.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;
using test::TraceRunBuilder;

// Rank 1 waits 50 ms at late.c:20 for rank 0's send; a second message arrives, on rank 1's
// uncorrected clock, 2 ms before it was sent (in an MPI_Test).
analysis::TraceAnalysis late_sender_run() {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "late.c", 10);
  b.op(send, 150, 150.5, 1, 4, 64).op(send, 300, 300.1, 1, 5, 64);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "late.c", 20);
  const auto test = b.site(SiteKind::mpi_test, "MPI_Test", "late.c", 30);  // no wait state: it does not block
  b.op(recv, 100, 150.6, 0, 4).op(test, 297, 298, 0, 5);
  return analysis::analyse_traces(b.build());
}

TEST(WaitStatesReport, TextNamesThePatternItsSiteTheWaitingAndTheLateRankAndTheClockCheck) {
  const std::string text = wait_states_text(late_sender_run());
  EXPECT_NE(text.find("Wait states (from the event trace)"), std::string::npos) << text;
  EXPECT_NE(text.find("2 ranks traced: 2 messages matched"), std::string::npos) << text;
  EXPECT_NE(text.find("Late Sender: 50 ms lost in 1 wait"), std::string::npos) << text;
  EXPECT_NE(text.find("late.c:20 (MPI_Recv)"), std::string::npos) << text;
  EXPECT_NE(text.find("waiting:\n      rank 1 "), std::string::npos) << text;
  EXPECT_EQ(text.find("thread"), std::string::npos) << "two ranks of one thread each: named by rank only\n"
                                                    << text;
  EXPECT_NE(text.find("caused by:\n      rank 0"), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 2 messages were received before they were sent"), std::string::npos) << text;
  EXPECT_NE(text.find("worst: rank 0 to rank 1, received 2 ms before"), std::string::npos) << text;
}

TEST(WaitStatesReport, JsonHasEveryFigureInSeconds) {
  const nlohmann::ordered_json j = wait_states_json(late_sender_run());
  EXPECT_EQ(j["messages"], 2);
  EXPECT_EQ(j["clock_check"]["violations"], 1);
  EXPECT_NEAR(j["clock_check"]["worst"]["early"].get<double>(), 0.002, 1e-9);
  ASSERT_EQ(j["patterns"].size(), 1u);
  const auto& p = j["patterns"][0];
  EXPECT_EQ(p["pattern"], "late_sender");
  EXPECT_NEAR(p["lost"].get<double>(), 0.050, 1e-9);
  EXPECT_EQ(p["sites"][0]["location"], "late.c:20");
  EXPECT_EQ(p["waiting"][0]["rank"], 1);
  EXPECT_EQ(p["causes"][0]["rank"], 0);
}

}  // namespace
}  // namespace parperf::report
