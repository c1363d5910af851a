// How the reports name a location of a traced run (report/location_label.hpp): one rule for the
// critical path, the root causes of waiting, the wait states and the findings.
#include <gtest/gtest.h>

#include <memory>

#include "report/location_label.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::report {
namespace {

TEST(LocationLabel, ASingleProgramNamesItsThreadsOnly) {
  EXPECT_EQ(location_label(0, 2u, false, 4), "thread 2") << "one process: 'rank 0' says nothing";
  EXPECT_EQ(location_label(0, 0u, false, 1), "thread 0") << "one process of one thread is still named";
}

TEST(LocationLabel, AnMpiRunOfOneRankIsNamedByRank) {
  EXPECT_EQ(location_label(0, 0u, true, 1), "rank 0") << "MPI ran: its one location is rank 0";
  EXPECT_EQ(location_label(0, 1u, true, 2), "rank 0 thread 1");
}

TEST(LocationLabel, RanksOfOneThreadEachAreNamedByRankOnly) {
  EXPECT_EQ(location_label(3, 0u, true, 1), "rank 3")
      << "an MPI run of one thread per rank: 'thread 0' says nothing";
}

TEST(LocationLabel, AHybridRunNamesTheThreadOfTheRanksThatHaveSeveral) {
  EXPECT_EQ(location_label(3, 1u, true, 2), "rank 3 thread 1");
  EXPECT_EQ(location_label(2, 0u, true, 1), "rank 2") << "rank 2 ran one thread, though others ran more";
}

TEST(LocationLabel, AWholeRankIsNamedByItsRankEvenInARunOfOne) {
  EXPECT_EQ(location_label(1, std::nullopt, true, 3), "rank 1") << "an MPI partner is a rank, not a thread";
  EXPECT_EQ(location_label(0, std::nullopt, false, 1), "rank 0");
}

TEST(LocationLabel, TheRunsShapeComesFromTheTracedLocations) {
  analysis::TraceAnalysis a;
  auto graph = std::make_shared<analysis::ActivityGraph>();
  graph->locations = {{.rank = 0, .thread = 0}, {.rank = 0, .thread = 1}, {.rank = 1, .thread = 0}};
  a.graph = graph;
  a.ranks = 2;
  a.processes = true;
  const RunLocations run = run_locations(a);
  EXPECT_EQ(location_label(run, 0, 1u), "rank 0 thread 1") << "rank 0 traced two threads";
  EXPECT_EQ(location_label(run, 1, 0u), "rank 1") << "rank 1 traced one thread";
}

TEST(LocationLabel, AnMpiRunOfOneRankIsOfProcessesByItsProfile) {
  test::TraceRunBuilder b;
  b.rank(0, 1);  // its profile says the MPI collector ran
  b.op(b.site(format::SiteKind::mpi_barrier, "MPI_Barrier", "one.c", 5), 1, 2, -1, 1);
  const RunLocations run = run_locations(analysis::analyse_traces(b.build()));
  EXPECT_EQ(location_label(run, 0, 0u), "rank 0") << "one MPI rank is named as the rank it is";
}

}  // namespace
}  // namespace parperf::report
