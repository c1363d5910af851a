// The flow arrows of the test run's matched communication (export/communication_flows.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "export/communication_flows.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

class export_flows : public ExportRunTest {};

TEST_F(export_flows, TheMessageGoesFromItsSendToTheEndOfItsReceiveAndTheCollectiveFromItsLastArrival) {
  LoadedRun loaded(dir_ / "run");
  const auto flows =
      exports::communication_flows(analysis::match_communication(loaded.traces), loaded.names).flows;
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

// A put's or get's target comes from the trace: one that is no process of the traced run (a rank whose
// trace is missing, or a damaged partner) gets no arrow, which would draw a process the run does not
// have (Perfetto's pid of rank 2^63-1 overflowed), and is counted for the export's warning.
TEST_F(export_flows, APutOrGetToAProcessWithoutATraceHasNoArrowAndIsCounted) {
  LoadedRun loaded(dir_ / "run");
  analysis::Communication communication;
  auto transfer = [&](std::int64_t target, bool put) {
    analysis::OneSidedTransfer t;
    t.origin = {.rank = 0, .thread = 0, .site = 5, .index = 2, .start_ns = 13 * kMsNs, .end_ns = 14 * kMsNs};
    t.target = target;
    t.put = put;
    t.bytes = 64;
    communication.one_sided.push_back(t);
  };
  transfer(1, true);
  transfer(7, true);
  transfer(std::numeric_limits<std::int64_t>::max(), false);
  transfer(1, false);
  const exports::CommunicationFlows arrows = exports::communication_flows(communication, loaded.names);
  ASSERT_EQ(arrows.flows.size(), 2u) << "only the transfers with rank 1, whose trace the run has, are drawn";
  EXPECT_EQ(arrows.flows[0].to.rank, 1) << "a put's arrow ends at its target";
  EXPECT_EQ(arrows.flows[1].from.rank, 1) << "a get's arrow starts at its target";
  EXPECT_EQ(arrows.untraced_targets, 2u) << "the transfers to rank 7 and to rank 2^63-1 are counted";
}

}  // namespace
}  // namespace parperf::test
