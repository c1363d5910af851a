// Late Sender and Late Receiver (wait_states.hpp), from the matched messages.
#include <algorithm>

#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/wait_tally.hpp"

namespace parperf::analysis {
void tally_message_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally) {
  for (const Message& m : communication.messages) {
    const CallSide& send = m.send;
    const CallSide& receive = m.receive;
    if (blocks_until_received(m.receive_kind) && send.start_ns > receive.start_ns) {
      const double waited = std::min(send.start_ns, receive.end_ns) - receive.start_ns;
      if (const RankTrace* rank = rank_trace(traces, receive.rank))
        tally.add(WaitPattern::late_sender, *rank, receive.thread, receive.site, waited, Culprit{send.rank});
    }
    // Only a send still running when the receive was posted can have waited for it.
    if (may_block_until_posted(m.send_kind) && receive.start_ns > send.start_ns &&
        send.end_ns > receive.start_ns) {
      if (const RankTrace* rank = rank_trace(traces, send.rank))
        tally.add(WaitPattern::late_receiver, *rank, send.thread, send.site, receive.start_ns - send.start_ns,
                  Culprit{receive.rank});
    }
  }
}

}  // namespace parperf::analysis
