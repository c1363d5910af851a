// An order for a part of the graph (graph_part.hpp) in which each of its nodes and ghosts comes
// after everything it depends on, found by every part at once: each part places its locations'
// nodes in turn as their sources are placed (as the whole graph's order is found), a ghost once its
// owner has placed it and said so; a part that can place nothing waits for a ghost it needs, having
// said what it placed. The parts' orders are then consistent with one order of the whole run (the
// one in which they were placed), which is what lets the sweeps by parts never wait for ever
// (part_sweep.hpp).
//
// A hub that other parts read is placed as soon as it can be (the whole graph's order places a hub
// when a node needs it: here the node may be another part's, waiting for it).
//
// Cycles (a damaged trace's) are broken as the whole graph's order breaks them: when no node of the
// run can be placed, at the earliest node any location is stuck at, whose edges from nodes not yet
// placed are dropped. Parts cannot see that alone: a part that can place nothing says so to part 0,
// with how many messages it sent each part and received from each; once every part has said so in
// the same round and every message sent has been received (none under way could let a part go on:
// messages between two parts arrive in order), the run is stuck, and part 0 names the location to
// break at, or ends the order when every part is done. The parts' orders, and their edges, are then
// the whole graph's, cut. A cycle among hubs alone is refused (NotByParts, on every part).
#pragma once

#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/node_order.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

NodeOrder order_part(GraphPart& part, PartExchange& exchange);

}  // namespace parperf::analysis
