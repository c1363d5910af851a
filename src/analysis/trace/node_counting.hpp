// Counting a run's events before the activity graph is read from them: each location's points,
// operations and kept matches as read_rank makes them (rank_reading.hpp), which it then reserves, and
// a bound on the hubs the linking adds. The graph's node vectors are reserved for as many before the
// first node is made.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "analysis/trace/graph_points.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis::graph_points {

struct NodeCounts {
  // By rank, then in each rank's threads' order, as read_rank reads them.
  std::vector<LocationSize> locations;
  std::vector<std::size_t> rank_begin;  // each rank's first in `locations`
  std::size_t nodes = 0;                // every point, and a bound on the hubs

  std::span<const LocationSize> of_rank(std::size_t r) const {
    const std::size_t end = r + 1 < rank_begin.size() ? rank_begin[r + 1] : locations.size();
    return std::span(locations).subspan(rank_begin[r], end - rank_begin[r]);
  }
};

// Every point becomes a node, and each instance of a collective, an OpenMP barrier or an OpenSHMEM
// barrier adds at most a hub: the node vectors are reserved for as many before the first is made, so
// that they hold what the graph needs rather than up to twice that from growing by doubling (a hub
// past the reservation doubled them while the graph was linked, where building it held the most),
// and the points can be made nodes rank by rank. A pass over the events counts the points as
// read_rank makes them (those a rank's window cuts off are the only slack). The instances are not
// matched yet (the nodes are made while they are): their counts are bounds, each that of a complete
// run.
NodeCounts count_nodes(const TraceRun& traces);

}  // namespace parperf::analysis::graph_points
