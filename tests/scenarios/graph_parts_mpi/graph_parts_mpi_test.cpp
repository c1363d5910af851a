// The analyses of the graph by parts over MPI (graph_parts_mpi_check.cpp) at 1 to 4 processes: what
// `parperf report --np K` runs. Each process checks its part, and the whole analysis made by parts
// (among them the cycles broken by parts), against the whole graph's itself.
#include <gtest/gtest.h>

#include <string>

#include "support/mpi_run.hpp"

namespace parperf::test {
namespace {

TEST(GraphPartsMpi, EveryProcessesPartHasTheWholeGraphsResults) {
  for (const int processes : {1, 2, 3, 4}) {
    const ProcessResult r = mpi_run(processes, {PARPERF_PROGRAM_GRAPH_PARTS_MPI_CHECK});
    EXPECT_EQ(r.exit_code, 0) << processes << " processes:\n" << r.err;
    EXPECT_NE(r.out.find("parts agree"), std::string::npos) << processes << " processes:\n" << r.out << r.err;
  }
}

}  // namespace
}  // namespace parperf::test
