// What reading a rank's trace makes for the activity graph before its nodes are made
// (rank_reading.hpp), and what counting its events bounds (node_counting.hpp): a thread's points in
// time, each of which becomes a node; its operations, by the points that begin, end and wait inside
// each; a rank's locations as read. Internal to building the graph (activity_graph.cpp), which makes
// the points nodes and links them.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/rank_bitmap.hpp"
#include "analysis/trace/task_links.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis::graph_points {

using format::SiteKind;

// `arrived`: where an OpenMP barrier's thread began to wait (after the tasks it ran inside it).
// `paused` and `resumed`: where this thread switched recording off and on for its process.
enum class Role : std::uint8_t {
  enter,
  leave,
  op_begin,
  op_end,
  acquired,
  release,
  arrived,
  paused,
  resumed,
  created,  // an OpenMP task was created (task_links.hpp)
};

struct Point {
  double time = 0;
  Role role = Role::enter;
  SegmentKind op_kind = SegmentKind::useful;  // op_begin: what the operation is
  bool parallel = false;                      // enter: of an OpenMP parallel region
  std::uint32_t ref = 0;                      // enter: interval; op_begin: operation name
};
static_assert(sizeof(Point) == 16, "a point a node: the builder holds a rank's at once");

// One operation of a location, where its points are (then its nodes). 16 bytes: the builder holds
// every location's (0.6 to 0.75 an event in a halo exchange) until the edges are made, beside the
// graph. A lock has no end but its release, and only a lock is acquired and only a barrier has an
// arrival: each pair shares a field. Its event's place in the thread's stream is not kept: the
// location's operation_events map events to operations, which are in their events' order. Nor is
// its event's match (a region instance, a lock, an active set), which only OpenMP barriers and locks
// and OpenSHMEM collectives need: their location's `matches` keep it (8 bytes an MPI call).
struct Operation {
  std::uint32_t begin = kNoNode;
  std::uint32_t end = kNoNode;    // a lock's: its release
  std::uint32_t inner = kNoNode;  // a lock's acquisition; where an OpenMP barrier's thread arrived
  std::uint16_t kind = 0;         // format::SiteKind: an MPI, OpenSHMEM or OpenMP one, all below 256
  OperationName name = 0;         // index into the graph's operations

  std::uint32_t release() const { return end; }
  std::uint32_t acquired() const { return inner; }
  std::uint32_t arrived() const { return inner; }
  // Every point it has, for renumbering.
  std::array<std::uint32_t*, 3> points() { return {&begin, &end, &inner}; }
};
static_assert(sizeof(Operation) == 16);

// The graph names its nodes by 32-bit numbers, and an event makes at least one node.
constexpr std::uint64_t kMostThreadEvents = std::numeric_limits<std::uint32_t>::max() - 1;

struct LocationBuild {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  std::vector<Point> points;
  std::vector<Operation> operations;  // in their events' order
  std::vector<std::int64_t> matches;  // of its operations of a kind that keeps_match, in their order
  // The last operation's waiting (wait + sync: after the work run inside it, for a barrier), which
  // only the reading needs: its end is placed when the next event is read (end_operation_by).
  double last_waited_ns = 0;
  // Its operations' events, marked among the thread's: the operation (index into `operations`) of an
  // event index (a message side's, a collective member's) is the event's rank among them. An array
  // of every event's operation took 4 bytes an event while the graph was built; a binary search of
  // the operations' events, for an edge's end, missed the caches.
  RankBitmap operation_events;
  std::vector<std::uint32_t> region_enters;    // nodes of its parallel-region enters
  std::vector<std::int64_t> region_instances;  // the join barrier's match after each
  TaskReader tasks;
};

// A location's points and operations, counted before it is read (count_nodes, node_counting.hpp).
struct LocationSize {
  std::size_t events = 0, points = 0, operations = 0, matches = 0;
};

// One rank's locations as read_rank reads them, on whichever thread read them, before they are made
// nodes in rank order (commit_rank). Its intervals and operations' names are numbered among its own,
// in the order it met them, as the enter and begin points and the operations refer to them; the
// commit gives them the run's numbers, which are then those the ranks read in turn would have given.
struct RankRead {
  std::vector<LocationBuild> locations;  // in thread order
  std::uint64_t events = 0;
  std::vector<GraphInterval> intervals;
  std::vector<std::string> operation_names;
  // An OpenSHMEM broadcast's root PE, by (location among the rank's, operation).
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::int64_t>> broadcast_roots;

  std::uint32_t intern_interval(GraphInterval interval) {
    const auto [it, added] =
        interval_ids.try_emplace(std::make_tuple(interval.name, interval.kind, interval.file, interval.line),
                                 static_cast<std::uint32_t>(intervals.size()));
    if (added) intervals.push_back(std::move(interval));
    return it->second;
  }
  std::uint32_t intern_operation(std::string_view name) {
    const auto [it, added] =
        operation_ids.try_emplace(std::string(name), static_cast<std::uint32_t>(operation_names.size()));
    if (added) operation_names.emplace_back(name);
    return it->second;
  }

 private:
  std::map<std::tuple<std::string, std::uint32_t, std::string, std::int64_t>, std::uint32_t> interval_ids;
  std::unordered_map<std::string, std::uint32_t> operation_ids;
};

inline bool is_openmp_barrier(std::uint32_t kind) {
  return is_kind(kind, SiteKind::omp_barrier) || is_kind(kind, SiteKind::omp_implicit_barrier) ||
         is_kind(kind, SiteKind::omp_join_barrier) || is_kind(kind, SiteKind::omp_implementation_barrier);
}
inline bool is_openmp_lock(std::uint32_t kind) {
  return is_kind(kind, SiteKind::omp_lock) || is_kind(kind, SiteKind::omp_nest_lock) ||
         is_kind(kind, SiteKind::omp_critical) || is_kind(kind, SiteKind::omp_ordered);
}
// OpenMP operations whose time is the runtime's (waiting or working for the program).
inline bool is_openmp_synchronization(std::uint32_t kind) {
  return is_openmp_barrier(kind) || is_openmp_lock(kind) || is_kind(kind, SiteKind::omp_taskwait) ||
         is_kind(kind, SiteKind::omp_taskgroup) || is_kind(kind, SiteKind::omp_reduction);
}
// OpenSHMEM collectives over an active set (shmem_barrier_all and sync_all are matched by name first).
inline bool is_shmem_set_collective(std::uint32_t kind) {
  return is_kind(kind, SiteKind::shmem_barrier) || is_kind(kind, SiteKind::shmem_broadcast) ||
         is_kind(kind, SiteKind::shmem_reduction) || is_kind(kind, SiteKind::shmem_all_to_all) ||
         is_kind(kind, SiteKind::shmem_gather_scatter);
}
// The operations whose event's match the linking reads: an OpenMP barrier's region instance, a lock's
// identity, an OpenSHMEM collective's active set.
inline bool keeps_match(std::uint32_t kind) {
  return is_openmp_barrier(kind) || is_openmp_lock(kind) || is_shmem_set_collective(kind);
}
// Calls f(index, operation, match) for each of a location's operations in order; the match is 0 for
// an operation that does not keep it.
template <class F>
void for_each_operation(const LocationBuild& l, F f) {
  std::size_t m = 0;
  for (std::size_t o = 0; o < l.operations.size(); ++o) {
    const Operation& op = l.operations[o];
    f(o, op, keeps_match(op.kind) ? l.matches[m++] : std::int64_t{0});
  }
}

// The points add_operation makes for an operation of that kind: its begin and end, and a lock's
// acquisition or a barrier's arrival between; none for one that is part of the work around it.
inline std::uint32_t operation_points(std::uint32_t kind) {
  if (!format::is_mpi_kind(kind) && !format::is_shmem_kind(kind) && !is_openmp_synchronization(kind))
    return 0;
  return is_openmp_lock(kind) || is_openmp_barrier(kind) ? 3 : 2;
}

}  // namespace parperf::analysis::graph_points
