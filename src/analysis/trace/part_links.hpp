// What the graph's builder (activity_graph.cpp) needs to link the nodes of a part of the graph
// (graph_part_build.hpp: link_graph_part) with the run's other parts: which ranks are the part's,
// the other parts' operations its links reach (their points as slots among the part's nodes, with
// their times), the run's numbers and owners of the collectives' hubs, and what it made of the
// hubs. The builder then keeps only the edges into the part's own nodes and hubs, counts each link
// in one part only (a message at its receiver's, a collective at its first member's), and leaves the
// order to the parts (part_order.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/trace/graph_points.hpp"
#include "analysis/trace/shmem_instances.hpp"
#include "analysis/trace/tuple_hash.hpp"

namespace parperf::analysis {

struct PartLinks {
  // A point of another part's operation that is none of the graph's nodes (outside its window):
  // an edge to or from it is that part's to count, not this one's.
  static constexpr std::uint32_t kRemoteNoNode = kNoNode - 1;

  std::uint32_t part = 0;
  std::uint32_t own_nodes = 0;   // the part's locations' nodes: 0 .. own_nodes
  std::uint32_t first_node = 0;  // the run's number of the first
  std::unordered_map<std::int64_t, std::uint32_t> part_of_rank;
  // Other parts' operations, by (rank, thread, event index), their points slots of the part's graph
  // (or kRemoteNoNode).
  std::unordered_map<std::tuple<std::int64_t, std::uint32_t, std::uint64_t>, graph_points::Operation,
                     TupleHash>
      remote;
  // The run's number of each slot from own_nodes on: another part's node, or a hub.
  std::vector<std::uint32_t> slot_global;
  std::vector<std::uint32_t> slot_owner;  // the part that holds it
  // A collective instance's hub: its run's number and owner, by (members_hash, ordinal, sequence).
  std::map<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>, std::pair<std::uint32_t, std::uint32_t>>
      collective_hubs;
  // The OpenMP barriers' hubs the part made (slots), numbered as the run's once every part's are
  // counted.
  std::vector<std::uint32_t> openmp_hubs;
  // The run's calls of OpenSHMEM barriers and collectives, every part's, and their instances, each
  // with the part that holds its hub (shmem_instances.hpp); the part's own calls without a set.
  std::vector<ShmemCall> shmem_calls;
  std::vector<ShmemInstance> shmem_instances;
  std::uint64_t shmem_without_set = 0;
  // The instances' hubs the part made: (slot, number among the run's OpenSHMEM hubs), numbered as
  // the run's after the OpenMP barriers' hubs.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> shmem_hubs;

  bool own_rank(std::int64_t rank) const {
    const auto p = part_of_rank.find(rank);
    return p != part_of_rank.end() && p->second == part;
  }
  // Whether an edge into `target` is the part's: into its locations' nodes or its own hubs.
  bool owns(std::uint32_t target) const {
    return target < own_nodes ||
           (target != kNoNode && target != kRemoteNoNode && slot_owner[target - own_nodes] == part);
  }
};

}  // namespace parperf::analysis
