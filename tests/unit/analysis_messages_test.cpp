// Matching the traced communication across ranks (analysis/trace/messages.hpp) and the clock check
// (clock_check.hpp), on hand-built traces whose messages and clock offsets are known.
#include <gtest/gtest.h>

#include <map>

#include "analysis/trace/clock_check.hpp"
#include "analysis/trace/messages.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kMs;
using test::TraceRunBuilder;

TEST(TraceMessages, SendsMatchReceivesInOrderByPartnerCommunicatorAndTag) {
  TraceRunBuilder b;
  // Rank 1 knows the world by another local id than rank 0: communicators match by identity.
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "pair.c", 10);
  b.op(send, 10, 11, 1, 5, 100).op(send, 20, 21, 1, 5, 200).op(send, 30, 31, 1, 9, 300);
  b.rank(1, 2, 3);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "pair.c", 20);
  // Tag 9 is received first: it must not take a tag-5 message.
  b.op(recv, 5, 31.5, 0, 9).op(recv, 32, 33, 0, 5).op(recv, 34, 35, 0, 5);
  const TraceRun run = b.build();

  const Communication c = match_communication(run);
  ASSERT_EQ(c.messages.size(), 3u) << "every send has its receive";
  EXPECT_EQ(c.unmatched_sends, 0u);
  EXPECT_EQ(c.unmatched_receives, 0u);
  std::map<std::uint64_t, const Message*> by_bytes;
  for (const Message& m : c.messages) by_bytes[m.bytes] = &m;
  ASSERT_EQ(by_bytes.size(), 3u);
  // Non-overtaking: the first tag-5 send is the first tag-5 receive.
  EXPECT_DOUBLE_EQ(by_bytes[100]->receive.start_ns, 32 * kMs);
  EXPECT_DOUBLE_EQ(by_bytes[200]->receive.start_ns, 34 * kMs);
  EXPECT_DOUBLE_EQ(by_bytes[300]->receive.start_ns, 5 * kMs);
  EXPECT_EQ(by_bytes[300]->tag, 9);
  EXPECT_EQ(by_bytes[100]->send.rank, 0);
  EXPECT_EQ(by_bytes[100]->receive.rank, 1);
  EXPECT_DOUBLE_EQ(by_bytes[100]->send.end_ns, 11 * kMs);
  EXPECT_EQ(site_location(run.ranks[1], by_bytes[100]->receive.site), "pair.c:20");
}

// Under one (partner, communicator, tag), the sends wait for receives at one time and the receives
// for sends at another: each call takes the first one waiting of the other kind, in order, however
// often the channel empties and which side then runs ahead.
TEST(TraceMessages, OnOneChannelSendsAndReceivesTakeTurnsWaitingAndStillPairInOrder) {
  TraceRunBuilder b;
  constexpr int kMessages = 300;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send", "turns.c", 10);
  // The sender runs ahead by 1 to 150 messages, then falls behind the receiver, by turns.
  const auto sent_at = [](int i) { return (i / 150) % 2 == 0 ? 1.0 + i : 2000.0 + i; };
  for (int i = 0; i < kMessages; ++i) b.op(send, sent_at(i), sent_at(i) + 0.1, 1, 7, 100 + i);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv", "turns.c", 20);
  for (int i = 0; i < kMessages; ++i) b.op(recv, 1000.0 + i * 2, 1000.5 + i * 2, 0, 7);
  const Communication c = match_communication(b.build());
  ASSERT_EQ(c.messages.size(), static_cast<std::size_t>(kMessages)) << "every send has its receive";
  EXPECT_EQ(c.unmatched_sends, 0u);
  EXPECT_EQ(c.unmatched_receives, 0u);
  std::map<std::uint64_t, double> received_at;  // by the bytes, which number the sends
  for (const Message& m : c.messages) received_at[m.bytes] = m.receive.start_ns;
  ASSERT_EQ(received_at.size(), static_cast<std::size_t>(kMessages));
  for (int i = 0; i < kMessages; ++i)
    EXPECT_DOUBLE_EQ(received_at[100 + static_cast<std::uint64_t>(i)], (1000.0 + i * 2) * kMs)
        << "send " << i << " must be the " << i << "th receive (non-overtaking)";
}

TEST(TraceMessages, AnIrecvArrivesAtTheWaitThatCompletedIt) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto isend = b.site(SiteKind::mpi_isend, "MPI_Isend");
  b.op(isend, 50, 50.1, 1, 3, 8);
  b.rank(1, 2);
  const auto irecv = b.site(SiteKind::mpi_irecv, "MPI_Irecv");
  const auto wait = b.site(SiteKind::mpi_wait, "MPI_Wait");
  b.op(irecv, 1, 1.1, 0, 3).op(wait, 10, 50.2, 0, 3);
  const Communication c = match_communication(b.build());
  ASSERT_EQ(c.messages.size(), 1u);
  EXPECT_EQ(c.messages[0].receive_kind, static_cast<std::uint32_t>(SiteKind::mpi_wait))
      << "the Irecv only posted the receive";
  EXPECT_DOUBLE_EQ(c.messages[0].receive.end_ns, 50.2 * kMs);
  EXPECT_EQ(c.unmatched_receives, 0u);
}

TEST(TraceMessages, ACutShortTraceLeavesItsPartnersSendsUnmatchedAndItsCollectivesIncomplete) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send");
  const auto barrier0 = b.site(SiteKind::mpi_barrier, "MPI_Barrier");
  b.op(send, 10, 11, 1, 1).op(barrier0, 12, 13, -1, 0).op(send, 20, 21, 1, 1).op(send, 30, 31, 1, 1);
  b.op(barrier0, 32, 33, -1, 1);
  b.rank(1, 2);  // killed after its first receive and barrier
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  const auto barrier1 = b.site(SiteKind::mpi_barrier, "MPI_Barrier");
  b.op(recv, 10, 11.5, 0, 1).op(barrier1, 12.5, 13, -1, 0);
  const Communication c = match_communication(b.build());
  EXPECT_EQ(c.messages.size(), 1u);
  EXPECT_EQ(c.unmatched_sends, 2u) << "two messages were sent to the rank that no longer traced";
  EXPECT_EQ(c.unmatched_receives, 0u);
  ASSERT_EQ(c.collectives.size(), 1u) << "the first barrier has both members";
  EXPECT_EQ(c.collectives[0].sequence, 0u);
  ASSERT_EQ(c.collectives[0].members.size(), 2u);
  EXPECT_DOUBLE_EQ(c.collectives[0].members[1].start_ns, 12.5 * kMs);
  EXPECT_EQ(c.incomplete_collectives, 1u) << "the second barrier lacks rank 1";
}

TEST(TraceMessages, APairwiseSendrecvIsASendAndAReceiveOnEachSide) {
  TraceRunBuilder b;
  for (int r = 0; r < 2; ++r) {
    b.rank(r, 2);
    const auto sendrecv = b.site(SiteKind::mpi_sendrecv, "MPI_Sendrecv");
    b.op(sendrecv, 10 + 5 * r, 20, 1 - r, 2, 16);
  }
  const Communication c = match_communication(b.build());
  ASSERT_EQ(c.messages.size(), 2u) << "one message each way";
  EXPECT_NE(c.messages[0].send.rank, c.messages[1].send.rank);
  EXPECT_EQ(c.unmatched_sends + c.unmatched_receives, 0u);
}

TEST(TraceMessages, AReceiveFromARankWithoutATraceIsUnmatched) {
  TraceRunBuilder b;
  b.rank(1, 3);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(recv, 10, 11, 2, 0);
  const Communication c = match_communication(b.build());
  EXPECT_TRUE(c.messages.empty());
  EXPECT_EQ(c.unmatched_receives, 1u);
}

// The pairing and the order of the merged timeline, which a matching that read each thread's events
// apart would have to rebuild (docs/efficiency-model.md, "Scale": tried twice, taken back).
TEST(TraceMessages, SendsOfTwoThreadsOnOneChannelAreReceivedInTheOrderTheyWereSent) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send");
  // Thread 1's send comes between thread 0's two.
  b.op(send, 10, 11, 1, 4, 100, 0).op(send, 30, 31, 1, 4, 300, 0).op(send, 20, 21, 1, 4, 200, 1);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(recv, 39, 40, 0, 4).op(recv, 49, 50, 0, 4).op(recv, 59, 60, 0, 4);
  const Communication c = match_communication(b.build());
  ASSERT_EQ(c.messages.size(), 3u);
  std::map<std::uint64_t, double> received_at;
  for (const Message& m : c.messages) received_at[m.bytes] = m.receive.end_ns;
  EXPECT_DOUBLE_EQ(received_at[100], 40 * kMs) << "the first message sent is the first received";
  EXPECT_DOUBLE_EQ(received_at[200], 50 * kMs) << "thread 1 sent the second message, at 20 ms";
  EXPECT_DOUBLE_EQ(received_at[300], 60 * kMs);
}

TEST(TraceMessages, MessagesComeInTheOrderOfTheLaterOfTheirCalls) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send0 = b.site(SiteKind::mpi_send, "MPI_Send");
  const auto recv0 = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(send0, 10, 11, 1, 1).op(recv0, 19, 20, 1, 2);
  b.rank(1, 2);
  const auto send1 = b.site(SiteKind::mpi_send, "MPI_Send");
  const auto recv1 = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(send1, 5, 6, 0, 2).op(recv1, 14, 15, 0, 1);
  const Communication c = match_communication(b.build());
  ASSERT_EQ(c.messages.size(), 2u);
  EXPECT_EQ(c.messages[0].tag, 1) << "tag 1's receive began at 14 ms, before tag 2's at 19 ms";
  EXPECT_EQ(c.messages[1].tag, 2);
}

// A thread whose times go back (no real clock does; a damaged trace can) is taken as it comes, as
// the merged timeline takes it: its message sent "at 10 ms" after one at 50 ms comes second.
TEST(TraceMessages, AThreadWhoseTimesGoBackIsMatchedAsItComes) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send");
  b.op(send, 50, 51, 1, 1).op(send, 10, 11, 1, 2);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(recv, 15, 15.5, 0, 2).op(recv, 16, 16.5, 0, 1);
  const Communication c = match_communication(b.build());
  ASSERT_EQ(c.messages.size(), 2u);
  EXPECT_EQ(c.messages[0].tag, 1) << "the thread's first send, at 50 ms, is met first";
  EXPECT_EQ(c.messages[1].tag, 2);
  EXPECT_DOUBLE_EQ(c.messages[1].receive.start_ns, 15 * kMs);
}

// In true time rank 0 sends at 100 ms and rank 1's receive ends at 101 ms; rank 1's clock reads
// 5 ms less than rank 0's, so on its own clock the receive ends at 96 ms.
TraceRunBuilder offset_pair() {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto send = b.site(SiteKind::mpi_send, "MPI_Send");
  b.op(send, 100, 100.2, 1, 0);
  b.rank(1, 2);
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  b.op(recv, 95.5, 96, 0, 0);
  return b;
}

TEST(TraceClockCheck, FindsAMessageReceivedBeforeItWasSentWhenTheOffsetIsNotCorrected) {
  const TraceRunBuilder b = offset_pair();
  const ClockCheck check = check_clocks(match_communication(b.build()));
  EXPECT_EQ(check.messages, 1u);
  ASSERT_EQ(check.violations, 1u) << "uncorrected, the message arrives 4 ms before it was sent";
  EXPECT_EQ(check.worst.sender, 0);
  EXPECT_EQ(check.worst.receiver, 1);
  EXPECT_NEAR(check.worst.early_ns, 4 * kMs, 1.0);
}

TEST(TraceClockCheck, FindsNoneWithTheRightOffset) {
  TraceRunBuilder b = offset_pair();
  b.correct_clock(1, 5);
  const ClockCheck check = check_clocks(match_communication(b.build()));
  EXPECT_EQ(check.messages, 1u);
  EXPECT_EQ(check.violations, 0u) << "corrected, the receive ends 1 ms after the send began";
}

}  // namespace
}  // namespace parperf::analysis
