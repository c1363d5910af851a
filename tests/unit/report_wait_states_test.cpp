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

// Two PEs: PE 1 reaches a shmem_barrier_all 40 ms after PE 0, which waits for it there. The
// patterns are MPI's and OpenMP's: the section must not say that no one waited.
TEST(WaitStatesReport, AnOpenShmemRunsWaitsAreSaidToBeElsewhereNotDenied) {
  TraceRunBuilder b;
  for (std::int64_t pe = 0; pe < 2; ++pe) {
    b.rank(pe, 2);
    const auto barrier_all = b.site(SiteKind::shmem_barrier, "shmem_barrier_all", "pes.c", 9);
    b.op(barrier_all, pe == 0 ? 10 : 50, 50.2, -1, 0, 0, 0, false);
  }
  const analysis::TraceAnalysis a = analysis::analyse_traces(b.build());
  ASSERT_GT(a.delays.waiting_ns, 30e6) << "the construction has PE 0 wait 40 ms";
  const std::string text = wait_states_text(a);
  EXPECT_EQ(text.find("no rank or thread waited"), std::string::npos)
      << "the section denies the 40 ms PE 0 waited at the barrier\n"
      << text;
  EXPECT_NE(text.find("OpenSHMEM's barriers, collectives and waits are not analysed as wait states here"),
            std::string::npos)
      << text;
  EXPECT_EQ(wait_states_text(late_sender_run()).find("OpenSHMEM"), std::string::npos)
      << "an MPI run's section speaks of OpenSHMEM";
}

}  // namespace
}  // namespace parperf::report
