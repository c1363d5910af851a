// A part of the activity graph, for the analysis of a large run by several processes
// (`parperf report --np K`): each process holds the nodes of a block of consecutive ranks and walks
// them in dependency order, exchanging with the others only the times of the nodes their nodes
// depend on (part_sweep.hpp). Nothing the run needs is held twice, but those times.
//
// A part is an ActivityGraph in numbers of its own, so that every pass over a graph works on it:
// - its locations' nodes, in the run's order: part node k is the run's node first_node + k (a
//   location's previous node is the node before it, here as there);
// - then its hubs (a collective's, a barrier's: those whose first source is its node, or whose
//   first target is when nothing leads into them);
// - then its ghosts: the nodes of other parts that its nodes' edges come from, each standing for
//   the other part's node, with that node's measured time. A ghost is in the hub range (it has no
//   previous node, no cost and no edges of its own); a sweep takes its time from its owner.
// Its edges are the run's edges into its own nodes and hubs, in the run's order. Its order puts each
// of its nodes and ghosts after its dependencies, consistently with the other parts' orders (the
// run's order restricted to the part, for one cut from the whole graph; or the parts' own, found
// together: part_order.hpp), so that every part can walk its own at once without waiting for ever:
// the part that holds the earliest node anyone waits for has all it needs.
// Its interval, stack and operation tables are the run's, whole (a few thousand entries).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/rank_bitmap.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

// Which part holds which ranks: blocks of consecutive ranks of the run (TraceRun::ranks), with about
// as many trace events each (known from the traces' block headers before any is decoded). A rank's
// threads stay together: their OpenMP links are many.
struct RankPartition {
  std::uint32_t parts = 1;
  // Per part, its first rank's index into TraceRun::ranks; the ranks' count at the end.
  std::vector<std::size_t> first_rank;
};
RankPartition partition_ranks(const TraceRun& traces, std::uint32_t parts);
// The part that holds the traced rank `rank` (its number, as RankTrace::rank), or `parts` for a rank
// without a trace.
std::uint32_t part_of_rank(const TraceRun& traces, const RankPartition& ranks, std::int64_t rank);
// The same from each rank's count of events (by rank, as TraceRun::ranks), for processes that have
// not opened the others' traces.
RankPartition partition_ranks(const std::vector<std::uint64_t>& events, std::uint32_t parts);

// The same cut of a graph's locations (those of the ranks of each part).
struct GraphPartition {
  std::uint32_t parts = 1;
  std::vector<std::uint32_t> first_location;  // per part, and the run's location count at the end
  std::uint32_t part_of_location(std::uint32_t location) const;
};
GraphPartition partition_locations(const ActivityGraph& g, const TraceRun& traces,
                                   const RankPartition& ranks);

struct GraphPart {
  std::uint32_t part = 0, parts = 1;
  ActivityGraph graph;
  std::uint32_t first_location = 0;  // the run's number of its first location
  std::uint32_t first_node = 0;      // the run's number of its first location's first node
  std::uint32_t first_ghost = 0;     // its ghosts: first_ghost .. graph.nodes()
  std::uint64_t run_nodes = 0;       // the run's nodes, every part's
  std::uint32_t run_first_hub = 0;   // the run's first hub (ActivityGraph::first_hub)
  // Every part's first node in the run (its first location's), and the run's first hub at the end.
  std::vector<std::uint32_t> parts_first_node;

  // The run's number of each hub and ghost (part nodes from graph.first_hub()): its hubs' ascending,
  // then its ghosts' ascending.
  std::vector<std::uint32_t> global_hubs;
  std::vector<std::uint32_t> ghost_owner;  // per ghost: the part that holds its node

  // Its nodes whose time other parts read (marked), and which parts: readers[readers_begin[r] ..
  // readers_begin[r + 1]) for the r-th marked node, ascending.
  RankBitmap read_elsewhere;
  std::vector<std::uint32_t> readers_begin;
  std::vector<std::uint32_t> readers;

  bool is_ghost(std::uint32_t k) const { return k >= first_ghost; }
  std::uint32_t global(std::uint32_t k) const {
    return k < graph.first_hub() ? first_node + k : global_hubs[k - graph.first_hub()];
  }
  // The part node of the run's node `node` if this part holds it or its ghost, else kNoNode.
  std::uint32_t local(std::uint32_t node) const;
  // The part that holds the run's location node `node` (< run_first_hub).
  std::uint32_t part_of_node(std::uint32_t node) const;
};

// The node that ends the run, from each part's (its time, and the part node, or kNoNode): the one that
// ends_later than the others. On every part.
struct RunEnd {
  double end_ns = 0;
  std::uint32_t node = kNoNode;  // the run's number; kNoNode: no part has a node
  std::uint32_t part = 0;        // the part that holds it
};
RunEnd run_end(const GraphPart& part, PartExchange& exchange, double end_ns, std::uint32_t last);

// A phase's span over the run, from each part's span of its ranks in it (the part's phase, on the
// part's node times, measured or replayed). On every part.
PhaseSpan phase_span(const GraphPhase& phase, const std::vector<double>& time, PartExchange& exchange);

// What a run cannot yet be analysed by parts for (dependencies that form cycles among hubs only,
// part_order.hpp): thrown by every part at once, so that all can take the whole graph's way instead.
class NotByParts : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Part `part` of the graph: what a process of a K-process analysis holds once the graph is built.
// Cut from the whole graph (which a distributed reading will make part by part, the same parts).
GraphPart cut_graph_part(const ActivityGraph& g, const GraphPartition& partition, std::uint32_t part);

}  // namespace parperf::analysis
