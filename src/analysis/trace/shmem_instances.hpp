// The instances of OpenSHMEM's barriers and collectives, from their calls: the activity graph's
// builder (activity_graph.cpp) groups the run's calls, and each part of a graph analysed by parts
// (graph_part_linking.cpp) groups every part's, so that all decide the same instances, links and hubs.
// - shmem_barrier_all and shmem_sync_all join every PE: the n-th call of each location that calls
//   OpenSHMEM is one instance, linked when every such location made it.
// - A collective over an active set (format/shmem_active_set.hpp): the n-th call over the set of
//   each member is one instance, linked when every member of the set made it.
// A linked instance leads from every member's arrival through a hub to every member's end, or, a
// broadcast whose root was traced, from the root's arrival to the others' ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/trace/activity_graph.hpp"

namespace parperf::analysis {

// A call of a barrier or collective: what the links need of it, in 64 bytes without padding (parts
// send them to each other as they are).
struct ShmemCall {
  std::int64_t set = 0;    // its active set's match; 0: shmem_barrier_all or shmem_sync_all
  std::uint64_t call = 0;  // how many calls over that set its location made before it
  std::int64_t rank = 0;
  std::uint64_t index = 0;  // its event's, in its thread's stream
  std::int64_t root = -1;   // a broadcast's root as the trace recorded it, else -1
  double begin_time = 0;    // its begin node's time, if it has one
  std::uint32_t thread = 0;
  std::uint32_t begin = kNoNode, end = kNoNode;  // the run's numbers of its nodes (kNoNode: none)
  std::uint16_t kind = 0;                        // format::SiteKind
  std::uint16_t name = 0;                        // the operation's name, the graph's number
};
static_assert(sizeof(ShmemCall) == 64);

// A part's or a run's calls, with what the instances need beside them.
struct ShmemCalls {
  std::vector<ShmemCall> calls;  // location by location, each location's in its order
  std::uint64_t pes = 0;         // its locations that call OpenSHMEM
  // Its calls of collectives without an active set that holds their PE (a trace of an older
  // collector, a set the match cannot hold): in no instance, each unlinked.
  std::uint64_t without_set = 0;
};

struct ShmemInstance {
  static constexpr std::size_t kNoRoot = static_cast<std::size_t>(-1);
  std::size_t first = 0, count = 0;  // its members: calls[first .. first + count), in location order
  bool linked = false;
  // A broadcast from a traced root: the member it leaves from (no hub); else kNoRoot.
  std::size_t root = kNoRoot;
  std::uint32_t hub = kNoNode;  // a linked instance with a hub: its hub's number among the hubs made
  double hub_time = 0;          // the last arrival of a member (its members with a begin)
  std::uint32_t owner = 0;      // on parts: the part that holds its hub
};

// The instances of `calls`, listed location by location in the run's location order (each
// location's in its order): `calls` is ordered by instance (barrier_all's by call, then by active
// set and call; each instance's members in location order) and the instances follow that order,
// which is the order the graph makes their hubs in. `pes`: the run's locations that call OpenSHMEM.
std::vector<ShmemInstance> shmem_instances(std::vector<ShmemCall>& calls, std::uint64_t pes);

}  // namespace parperf::analysis
