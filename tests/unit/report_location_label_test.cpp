// How the reports name a location of a traced run (report/location_label.hpp): one rule for the
// critical path, the root causes of waiting, the wait states and the findings.
#include <gtest/gtest.h>

#include <memory>

#include "report/location_label.hpp"

namespace parperf::report {
namespace {

TEST(LocationLabel, ASingleProcessNamesItsThreadsOnly) {
  EXPECT_EQ(location_label(0, 2u, 1, 4), "thread 2") << "one process: 'rank 0' says nothing";
  EXPECT_EQ(location_label(0, 0u, 1, 1), "thread 0") << "one process of one thread is still named";
}

TEST(LocationLabel, RanksOfOneThreadEachAreNamedByRankOnly) {
  EXPECT_EQ(location_label(3, 0u, 4, 1), "rank 3")
      << "an MPI run of one thread per rank: 'thread 0' says nothing";
}

TEST(LocationLabel, AHybridRunNamesTheThreadOfTheRanksThatHaveSeveral) {
  EXPECT_EQ(location_label(3, 1u, 4, 2), "rank 3 thread 1");
  EXPECT_EQ(location_label(2, 0u, 4, 1), "rank 2") << "rank 2 ran one thread, though others ran more";
}

TEST(LocationLabel, AWholeRankIsNamedByItsRankEvenInARunOfOne) {
  EXPECT_EQ(location_label(1, std::nullopt, 2, 3), "rank 1") << "an MPI partner is a rank, not a thread";
  EXPECT_EQ(location_label(0, std::nullopt, 1, 1), "rank 0");
}

TEST(LocationLabel, TheRunsShapeComesFromTheTracedLocations) {
  analysis::TraceAnalysis a;
  auto graph = std::make_shared<analysis::ActivityGraph>();
  graph->locations = {{.rank = 0, .thread = 0}, {.rank = 0, .thread = 1}, {.rank = 1, .thread = 0}};
  a.graph = graph;
  a.ranks = 2;
  const RunLocations run = run_locations(a);
  EXPECT_EQ(location_label(run, 0, 1u), "rank 0 thread 1") << "rank 0 traced two threads";
  EXPECT_EQ(location_label(run, 1, 0u), "rank 1") << "rank 1 traced one thread";
}

}  // namespace
}  // namespace parperf::report
