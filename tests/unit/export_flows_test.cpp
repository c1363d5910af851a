// The flow arrows of the test run's matched communication (export/communication_flows.hpp).
#include <gtest/gtest.h>

#include "export/communication_flows.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

class export_flows : public ExportRunTest {};

TEST_F(export_flows, TheMessageGoesFromItsSendToTheEndOfItsReceiveAndTheCollectiveFromItsLastArrival) {
  LoadedRun loaded(dir_ / "run");
  const auto flows = exports::communication_flows(analysis::match_communication(loaded.traces), loaded.names);
  ASSERT_EQ(flows.size(), 2u);
  const exports::Flow& message = flows[0];
  EXPECT_EQ(message.from.rank, 0);
  EXPECT_DOUBLE_EQ(message.from.time_ns, 13 * kMsNs);
  EXPECT_EQ(message.to.rank, 1);
  EXPECT_DOUBLE_EQ(message.to.time_ns, 15 * kMsNs) << "the end of rank 1's receive, corrected";
  EXPECT_EQ(message.name, "MPI_Send → MPI_Recv (tag 7, 800 bytes)");
  EXPECT_EQ(flows[1].name, "MPI_Allreduce #0: rank 0 arrived last");
  EXPECT_DOUBLE_EQ(flows[1].to.time_ns, 19 * kMsNs);
}

}  // namespace
}  // namespace parperf::test
