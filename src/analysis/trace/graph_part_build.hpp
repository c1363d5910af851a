// A part of the activity graph (graph_part.hpp) made from its own ranks' traces, as each process of
// `parperf report --np K` makes its part: no process reads the whole run. Each part reads its block
// of ranks into nodes as the whole graph's builder reads the run, rank by rank; then the parts agree
// on the run's numbers of what they named and made:
// - the intervals, operations' names and interval stacks: every part's in the order its ranks met
//   them, the parts' in part order, which is the order the whole graph's reading meets them in;
// - the nodes: the parts' locations' in part order.
// The part's nodes, their times, segments, stacks and operations, are then the whole graph's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

// What a part named, in the order it named it (its numbers), and the run's names in the run's order.
struct PartNames {
  std::vector<GraphInterval> intervals;
  std::vector<std::string> operations;  // [0]: "" (none)
  std::vector<StackFrame> stacks;       // [0]: the empty stack
};
// The run's names from every part's, in part order, and each part's numbers in them. Refuses (naming
// `directory`) a run with more operations' names than the graph numbers.
PartNames merge_part_names(const std::vector<PartNames>& parts, std::vector<RunNumbers>& numbers,
                           const std::string& directory);

// Part `part` of the run's graph, its nodes read from the traces of its ranks only (ranks.first_rank
// [part] up to the next part's), not yet linked. `draft.unlinked()`: its locations and nodes with the
// run's numbers, the run's names, phases (its ranks' bounds: as many as the run's), start, end and
// events. `part`: its first location's and first node's numbers in the run, every part's first node
// and the run's first hub (its graph is empty until linked).
struct GraphPartDraft {
  std::unique_ptr<TraceRun> ranks;  // its ranks' traces, which the draft reads
  GraphPart part;
  ActivityGraphDraft draft;
};
GraphPartDraft read_graph_part(const TraceRun& traces, const RankPartition& ranks, std::uint32_t part,
                               PartExchange& exchange);

// The part linked with the others (part_links.hpp): the edges into its nodes and hubs, from its
// nodes, its hubs and ghosts of the other parts' nodes and hubs, with the run's numbers of its hubs
// (the MPI collectives' in their instances' order, then the OpenMP barriers' part by part, then the
// OpenSHMEM barriers' and collectives' in their instances' order: shmem_instances.hpp), the parts
// that read its nodes, and an order found with the other parts (part_order.hpp); the run's counts of
// what was linked and not. `communication`: the part's (part_matching.hpp). The whole graph's part, as
// cut_graph_part cuts it, but in its order.
GraphPart link_graph_part(GraphPartDraft&& draft, const Communication& communication, const TraceRun& traces,
                          const RankPartition& ranks, PartExchange& exchange);

}  // namespace parperf::analysis
