// The network as the replay models it: a transfer of b bytes over one hop takes latency + b /
// bandwidth; a collective's tree takes ceil(log2 members) hops (its members' data are not in the
// trace: a collective's transfer is its latency). Fitted from the run's own messages: every
// receive that waited for its message (the send began after the receive did, so the receive's end
// is the message's arrival) observed the transfer of its bytes, and whatever delayed it on the way
// (a busy receiver, another message ahead of it). The network's own cost is the best it did: the
// latency is the 10th percentile of the small messages' (≤ 4 KiB) observations, the bandwidth the
// 90th percentile of bytes / (observed − latency) over the large ones (≥ 64 KiB); what a message
// took beyond that stays with its receive as the call's own cost. Never slower than any message
// went, waited for or not (a busy machine can leave only one or two receives that waited, each
// delayed): a message was at its target by its receive's end, so the latency is at most the
// shortest send-begin-to-receive-end of a small message, and the bandwidth at least each large
// message's bytes over its send-begin-to-receive-end less the latency. Without large messages the
// bandwidth is taken as infinite, without observations the latency as 0: nothing is invented.
#pragma once

#include <cstdint>
#include <limits>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

struct NetworkModel {
  double latency_ns = 0;
  double bytes_per_ns = std::numeric_limits<double>::infinity();
  std::uint64_t observations = 0;  // the messages it was fitted on
  std::uint64_t large = 0;         // of those, the ones the bandwidth was fitted on

  double transfer_ns(const GraphEdge& e) const {
    return static_cast<double>(e.hops) * (latency_ns + static_cast<double>(e.bytes) / bytes_per_ns);
  }
};

NetworkModel fit_network(const ActivityGraph& graph);
// The same fit from a part of the graph (graph_part.hpp), made by every part at once: the whole
// graph's, to the bit, on every part.
NetworkModel fit_network(const GraphPart& part, PartExchange& exchange);

}  // namespace parperf::analysis
