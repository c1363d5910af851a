// Counting a run's events before the activity graph is read from them: each location's points,
// operations and kept matches as read_rank makes them (rank_reading.hpp), which it then reserves, and
// a bound on the hubs the linking adds. The graph's node vectors are reserved for as many before the
// first node is made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "analysis/trace/graph_points.hpp"
#include "analysis/trace/site_index.hpp"
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
//
// The counting sees the events of all_thread_streams(traces), in any interleaving: on its own
// (count_nodes), or beside the matching, which decodes every event anyway (match_communication with
// the counter as its observer): one decoding of the whole trace fewer.
class NodeCounter final : public StreamObserver {
 public:
  explicit NodeCounter(const TraceRun& traces) : traces_(traces) {}
  void begin(const std::vector<std::unique_ptr<ThreadEvents>>& streams) override;
  void event(std::size_t stream, const format::TraceEvent& e) override;
  void end() override { ended_ = true; }
  // Whether every stream was read to its end: the counts are then complete.
  bool ended() const { return ended_; }
  NodeCounts counts() const;

 private:
  // What a site is to the counting, worked out once per site of each rank.
  struct SiteFacts {
    std::uint8_t points = 0;  // an operation's (operation_points); 1 for an interval's enter or leave
    bool operation = false, keeps_match = false, task_create = false, mpi_collective = false,
         openmp_barrier = false, shmem_barrier_all = false, shmem_set_collective = false;
  };
  struct RankFacts {
    SiteIndex sites;
    std::vector<SiteFacts> facts;  // by site slot
  };
  // One thread's counts, and what it adds to the bound on the hubs.
  struct StreamCount {
    std::size_t rank = 0;  // index into traces_.ranks
    LocationSize size;
    std::vector<std::int64_t> barriers;  // its OpenMP barriers' region instances (matches)
    std::uint64_t barriers_all = 0;      // shmem_barrier_all and shmem_sync_all calls
    std::uint64_t set_calls = 0;         // calls of OpenSHMEM collectives over an active set
    std::unordered_map<std::uint32_t, std::uint64_t> collective_calls;  // MPI, by the events' communicator
  };

  const TraceRun& traces_;
  std::vector<RankFacts> ranks_;
  std::vector<StreamCount> streams_;
  bool ended_ = false;
};

// The counts of a pass of their own over the traces.
NodeCounts count_nodes(const TraceRun& traces);

}  // namespace parperf::analysis::graph_points
