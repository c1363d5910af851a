// Delay costs, the root causes of waiting (Scalasca's delay analysis, DESIGN.md section 10). A
// location that waits (a receive, a collective, a barrier, a lock, a fork) waited for a node of
// another location that came late. The wait is charged to what made that node late: the path of
// what it, in turn, waited for (critical_path.hpp's backward walk, on the measured times), from the
// late node back, as much of it as the wait lasted. Computation on that path is charged to its
// location and innermost interval; where the late location was itself waiting, the walk goes on to
// whoever delayed it, so a chain of waits is charged to the computation at its head.
//
// This charges the computation that ran last before the partner was needed, not Scalasca's excess
// over the waiting side's computation since their previous synchronization: the two agree when the
// locations met just before (loops synchronized every iteration), and differ when a late partner
// ran long stretches of equal work first.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

struct DelayCause {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  std::uint32_t location = 0;
  GraphInterval interval;     // innermost; an empty name for code outside every interval
  double delay_ns = 0;        // waiting it caused
  std::uint64_t waiting = 0;  // locations that waited for it
  std::uint64_t waits = 0;    // waits it took part in
};

struct DelayCosts {
  double waiting_ns = 0;           // every wait of the run
  double charged_ns = 0;           // of which charged to computation
  std::vector<DelayCause> causes;  // most delay first
};

DelayCosts delay_costs(const ActivityGraph& graph);
// The same from a part of the graph (graph_part.hpp), by every part at once: each wait's walk goes
// from part to part where its nodes are. The whole graph's, to the bit, on every part.
DelayCosts delay_costs(const GraphPart& part, PartExchange& exchange);

}  // namespace parperf::analysis
