// An order for a part of the graph (graph_part.hpp) in which each of its nodes and ghosts comes
// after everything it depends on, found by every part at once: each part places its locations'
// nodes in turn as their sources are placed (as the whole graph's order is found), a ghost once its
// owner has placed it and said so; a part that can place nothing waits for a ghost it needs, having
// said what it placed. The parts' orders are then consistent with one order of the whole run (the
// one in which they were placed), which is what lets the sweeps by parts never wait for ever
// (part_sweep.hpp). Cycles (the whole graph's order breaks those of a damaged trace) are not yet
// broken by parts: a cycle within a part is refused by every part (NotByParts); one through several
// parts would leave them waiting for each other, and is not yet found.
#pragma once

#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/node_order.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

NodeOrder order_part(const GraphPart& part, PartExchange& exchange);

}  // namespace parperf::analysis
