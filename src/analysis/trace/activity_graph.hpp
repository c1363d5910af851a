// The happens-before graph of a traced run (DESIGN.md section 10): what every analysis of "why the
// run takes as long as it does" works on (clock_repair, replay, critical_path, pop_factors,
// delay_costs).
//
// Nodes. Each location (a rank's thread) is a sequence of time points: where an interval begins or
// ends, where an operation (MPI, OpenSHMEM, OpenMP synchronization) begins or ends, where a lock was
// acquired and released, where the thread switched recording off and on (the phases). Node k of a location
// closes the segment that runs from node k-1 to it; the segment is useful work, waiting or running inside an
// operation, an OpenMP worker's idling between parallel regions, or time recording was off, with the
// intervals open during it.
//
// Edges. A node may also have to wait for nodes of other locations: a message's receive ends after
// its send began (and a blocking send that waited for its receive ends after that was posted); a
// collective's members leave after the arrivals they need (every member's for a barrier, reduction
// to all or all-to-all: through one hub node the arrivals point to; the root's for a broadcast or
// scatter; every other member's for the root of a reduce or gather); an OpenMP worker begins a
// region after its master forked it; a team's members leave a barrier after all arrived; a lock is
// acquired after its previous holder released it; an OpenSHMEM barrier_all joins every PE, a
// collective over an active set its members (as an MPI collective); a
// `shmem_wait_until` ends after the last put into that PE that began before it ended; a `shmem_quiet`
// (or the quiet a `shmem_barrier_all` or `shmem_barrier` implies) ends after the PE's puts and
// non-blocking gets since its previous quiet are complete, an MPI window synchronization (fence,
// unlock, flush, complete) after its process's puts and gets since the previous one; a window's
// fences join its group as a barrier does; an OpenMP task begins after its creation,
// and a taskwait or taskgroup ends after the tasks it waits for (task_links.hpp).
//
// Cost. A node's time is max(previous node of its location, every edge's source) + its own cost:
// the work of its segment, or the part of an operation that came after what it waited for. The
// costs follow from the measured (repaired) times (ActivityGraph::measured, not stored); a replay
// recomputes the times with changed costs in the same order.
//
// Window. Each rank's locations are taken from the end of its MPI_Init/shmem_init to the start of
// its MPI_Finalize/shmem_finalize (start-up and shut-down are not the program's time, as in the
// report); without those calls, the whole trace.
//
// What the trace cannot link is counted in `unlinked`, never guessed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <ranges>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analysis/trace/messages.hpp"
#include "analysis/trace/node_order.hpp"
#include "analysis/trace/rank_bitmap.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

enum class SegmentKind : std::uint8_t {
  useful,   // computation: outside communication, synchronization and the parallel runtime
  idle,     // an OpenMP worker between parallel regions
  mpi,      // inside an MPI call
  shmem,    // inside an OpenSHMEM call
  openmp,   // inside an OpenMP synchronization (barrier, lock, taskwait, ...)
  startup,  // before the location's first event: from the run's start to it (its first node's, only)
  paused,   // recording was off (parperf_control, MPI_Pcontrol, omp_control_tool): not measured
};

enum class EdgeKind : std::uint8_t {
  message,        // send begin -> receive end
  late_receiver,  // receive begin -> blocking send end
  collective,     // MPI collective: arrival -> hub or root's end, hub -> end
  fork,           // master's region begin -> worker's region begin
  omp_barrier,    // arrival -> hub -> end
  lock,           // release -> acquisition
  shmem_barrier,  // arrival -> hub -> end
  shmem_wait,     // put begin -> wait end
  // an outstanding put's or non-blocking get's begin -> the end of the OpenSHMEM quiet or MPI window
  // synchronization that completes it
  transfer_completion,
  task_creation,  // an OpenMP task's creation -> its first piece's begin
  task_wait,      // a task's last piece's end -> the taskwait or taskgroup end that waits for it
  // an MPI window lock's or OpenSHMEM lock's release (its unlock's end) -> the next holder's lock's end
  remote_lock,
  // an MPI_Win_post's begin -> the end of a start (or complete) of an origin it let go; an
  // MPI_Win_complete's begin -> the end of its target's wait (window_epochs.hpp)
  window_epoch,
};
inline constexpr int kEdgeKindCount = 13;

// Edges whose time is moving data over the network: what a changed network changes.
constexpr bool network_edge(EdgeKind kind) {
  return kind == EdgeKind::message || kind == EdgeKind::collective || kind == EdgeKind::shmem_barrier ||
         kind == EdgeKind::shmem_wait || kind == EdgeKind::transfer_completion ||
         kind == EdgeKind::remote_lock || kind == EdgeKind::window_epoch;
}

// Whether an operation, by its name (ActivityGraph::operations), acquires an OpenSHMEM lock
// (shmem_set_lock): its time is waiting for another PE's release, linked to the previous holder's
// shmem_clear_lock when the trace names the lock (window_locks.hpp). Without an edge into it
// (GraphUnlinked::shmem_locks) its waiting is taken as measured, also by a replay on an ideal network
// (it is no transfer).
inline bool acquires_shmem_lock(std::string_view operation) {
  return operation.starts_with("shmem_") && operation.ends_with("set_lock");
}
// Whether it waits for a value another PE writes (shmem_wait, shmem_int_wait_until, ...): linked to
// the last put into its PE when there is one (EdgeKind::shmem_wait); else (the value came by an
// atomic, or from a PE without a trace: GraphUnlinked::shmem_waits) its waiting is taken as measured,
// as a lock's.
inline bool waits_for_shmem_value(std::string_view operation) {
  return operation.starts_with("shmem_") && operation.find("wait") != std::string_view::npos;
}
// Whether it is an MPI window synchronization that waits for other ranks: a lock's previous holders
// (MPI_Win_lock, _lock_all: linked to them when the trace names the window and the holds' order is
// consistent, window_locks.hpp), the posts and completes of post-start-complete-wait (MPI_Win_start,
// MPI_Win_wait: linked when the trace names their windows and groups, window_epochs.hpp). Without an edge
// into it its waiting is taken as measured (GraphUnlinked::window_waits). A fence is linked as a barrier when
// it ends an epoch; one that opens the first (MPI_MODE_NOPRECEDE, or traced by an older collector) has no
// edge into it and is taken as measured too (replay.cpp).
inline bool waits_for_window(std::string_view operation) {
  return operation == "MPI_Win_lock" || operation == "MPI_Win_lock_all" || operation == "MPI_Win_start" ||
         operation == "MPI_Win_wait";
}
// Whether it reads or writes a file (MPI_File_read..., MPI_File_write..., MPI_File_sync): its time is
// the file system's, which no network model changes.
inline bool does_file_io(std::string_view operation) {
  return operation.starts_with("MPI_File_") &&
         (operation.find("read") != std::string_view::npos ||
          operation.find("write") != std::string_view::npos || operation == "MPI_File_sync");
}

// An index into ActivityGraph::operations (a node's, 2 bytes: a run has a few dozen operations' names).
using OperationName = std::uint16_t;

inline constexpr std::int32_t kBoundByPrevious = -1;
inline constexpr std::int32_t kBoundByStart = -2;
inline constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t kHub = std::numeric_limits<std::uint32_t>::max();  // a hub's location

// An edge into a node: edges are stored by the node they lead into (ActivityGraph::in_edges), which
// is therefore not stored with them (edge_target finds it).
struct GraphEdge {
  std::uint32_t source = 0;
  EdgeKind kind = EdgeKind::message;
  std::uint8_t hops = 1;    // a collective's: ceil(log2(members)), the rounds a tree needs
  std::uint64_t bytes = 0;  // the data the edge carries (a message's, a collective member's)
};
static_assert(sizeof(GraphEdge) == 16, "0.36 edges an event in a halo exchange");

struct GraphLocation {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  bool worker = false;               // an OpenMP worker: idle outside its parallel regions
  std::uint32_t first = 0, end = 0;  // its nodes
};

// An interval as the reports name it, the same on every rank.
struct GraphInterval {
  std::string name;
  std::uint32_t kind = 0;  // format::SiteKind
  std::string file;        // the file's name, without its directory
  std::int64_t line = 0;
};

// Interval stacks, shared: frame 0 is the empty stack; each other frame is an interval on top of its
// parent frame.
struct StackFrame {
  std::uint32_t parent = 0;
  std::uint32_t interval = 0;
  std::uint32_t depth = 0;
};

// A phase: a span of a rank's run while recording was on. parperf_control, MPI_Pcontrol and
// omp_control_tool switch recording for the whole process; the trace marks each switch on the
// thread that made it. Phase p of a rank runs from its p-th switch on (or its first node) to the
// switch off after it (or its last node); ranks' phases are paired by that count.
struct PhaseBounds {
  std::int64_t rank = 0;
  std::uint32_t begin = 0, end = 0;  // nodes
};
struct GraphPhase {
  std::vector<PhaseBounds> ranks;  // by rank: the ranks that had this phase
};

struct GraphCounts {
  std::uint64_t messages = 0, collectives = 0, openmp_barriers = 0, forks = 0, lock_handovers = 0,
                shmem_barriers = 0, shmem_waits = 0;
  std::uint64_t shmem_quiets = 0;       // quiets (and barriers) that completed outstanding transfers
  std::uint64_t shmem_collectives = 0;  // instances of collectives over an active set
  std::uint64_t task_creations = 0, task_waits = 0;
  std::uint64_t window_completions = 0;  // MPI window synchronizations that completed outstanding transfers
  std::uint64_t window_lock_handovers = 0;  // an MPI window lock's release -> its next holder's lock
  std::uint64_t shmem_lock_handovers = 0;   // an OpenSHMEM lock's clear_lock -> its next set_lock
  // MPI_Win_post -> a start (or complete) it let go, MPI_Win_complete -> the wait it let go
  std::uint64_t window_epoch_links = 0;
};

// What could not be linked, by why.
struct GraphUnlinked {
  std::uint64_t sends = 0, receives = 0;      // the matching's (messages.hpp)
  std::uint64_t incomplete_collectives = 0;   // some members untraced
  std::uint64_t nonblocking_collectives = 0;  // MPI_I...: their completion is not linked
  std::uint64_t shmem_collectives = 0;        // OpenSHMEM collectives: incomplete, or without their set
  std::uint64_t shmem_waits = 0;              // no put into the PE before the wait ended
  // shmem_set_lock (and a shmem_test_lock that took its lock) not linked to the holder it may have
  // waited for (window_locks.hpp: a collector that did not name the lock, a lock granted before its
  // previous holder released it); its waiting is taken as measured (the replay keeps it, also on an
  // ideal network)
  std::uint64_t shmem_locks = 0;
  // MPI_Win_start and _wait not linked to every partner they may have waited for (window_epochs.hpp),
  // and the MPI_Win_lock and _lock_all calls not linked to the holder they may have waited for
  // (window_locks.hpp): their waiting is taken as measured, also on an ideal network
  std::uint64_t window_waits = 0;
  std::uint64_t outside_window = 0;  // an end inside start-up or shut-down
  std::uint64_t cycles_broken = 0;   // dependencies dropped to break a cycle
  // OpenMP task pieces without an id (a trace before 2.2) or whose task's creation is not traced
  std::uint64_t task_pieces = 0;
};

struct ActivityGraph {
  std::vector<GraphLocation> locations;
  // Per node: the locations' nodes, location by location (GraphLocation::first .. end), then the hubs.
  // A node's location is not stored (4 bytes a node): it follows from those ranges (location_of).
  // A node's own cost and what it waited for are not stored either (12 bytes a node): they follow from
  // the times (measured).
  std::vector<double> time;              // ns on rank 0's clock, corrected (and repaired)
  std::vector<SegmentKind> segment;      // of the segment that ends at the node
  std::vector<std::uint32_t> stack;      // its interval stack (StackFrame index)
  std::vector<OperationName> operation;  // the operation it is inside (index into operations), or 0
  // Incoming edges (in_edges): the nodes any edge leads into are marked (a fifth of them in a halo
  // exchange); the r-th of those has edges[in_edge_begin[r] .. in_edge_begin[r + 1]). 4 bytes a node
  // with edges and 0.25 a node, where an offset for every node took 4 bytes a node.
  RankBitmap with_in_edges;
  std::vector<std::uint32_t> in_edge_begin;
  std::vector<GraphEdge> edges;  // by target
  NodeOrder order;               // every node, each after all it depends on
  std::vector<GraphInterval> intervals;
  std::vector<StackFrame> stacks;
  std::vector<std::string> operations;  // [0] = "" (none), then "MPI_Recv", "omp barrier", ...
  // Empty when no rank switched recording: then the whole run is one phase.
  std::vector<GraphPhase> phases;
  double start_ns = 0;  // the run's start (the earliest first node), and end (the latest node)
  double end_ns = 0;
  GraphCounts linked;
  GraphUnlinked unlinked;
  std::uint64_t events = 0;  // trace events read

  std::size_t nodes() const { return time.size(); }
  // The first hub: every node before it belongs to a location.
  std::uint32_t first_hub() const { return locations.empty() ? 0 : locations.back().end; }
  bool is_hub(std::uint32_t node) const { return node >= first_hub(); }
  // The node before `node` on its location, or kNoNode for a location's first node (the only one
  // whose segment is start-up) or a hub.
  std::uint32_t previous(std::uint32_t node) const {
    return is_hub(node) || segment[node] == SegmentKind::startup ? kNoNode : node - 1;
  }
  // Its location (index into locations), or kHub: a search of the locations' ranges. Passes that walk
  // a location's nodes know it already; those that jump along edges look it up.
  std::uint32_t location_of(std::uint32_t node) const;
  // Whether it has several locations and no dependency between any of them was linked: their
  // synchronization is not in the trace (threads of the program's own: only OpenMP's are traced), and
  // every pass takes them as independent, so a replay cannot say what a change to one does to another.
  bool locations_independent() const;
  // The edges into `node`, as indices into `edges`, in the order they were linked.
  using EdgeRange = std::ranges::iota_view<std::uint32_t, std::uint32_t>;
  EdgeRange in_edges(std::uint32_t node) const {
    const std::uint32_t r = with_in_edges.rank(node);
    if (r == RankBitmap::kUnmarked) return {0, 0};
    return {in_edge_begin[r], in_edge_begin[r + 1]};
  }
  // Calls f(node) for each node that edges lead into, and f(node, edge) for every edge, in node order
  // (the edges' order): a walk of the marked nodes, for the passes that need no others.
  template <class F>
  void for_each_node_with_edges(F f) const {
    with_in_edges.for_each_marked(
        [&](std::uint64_t node, std::uint32_t) { f(static_cast<std::uint32_t>(node)); });
  }
  template <class F>
  void for_each_edge(F f) const {
    with_in_edges.for_each_marked([&](std::uint64_t node, std::uint32_t r) {
      for (std::uint32_t e = in_edge_begin[r]; e < in_edge_begin[r + 1]; ++e)
        f(static_cast<std::uint32_t>(node), e);
    });
  }
  // The edges into the nodes before `node`: where its own begin.
  std::uint32_t edges_before(std::uint32_t node) const {
    return in_edge_begin.empty() ? 0 : in_edge_begin[with_in_edges.count_before(node)];
  }
  // The node edge `edge` leads into: a search. Passes over every edge go node by node.
  std::uint32_t edge_target(std::uint32_t edge) const;
  // Sets the edges and their index: unplaced[i] leads into targets[i] (< nodes()). Edges into the same
  // node keep their order.
  void set_edges(const std::vector<GraphEdge>& unplaced, std::vector<std::uint32_t> targets);

  // A node as measured (by its corrected, repaired times). `cost`: its own cost, its time less the
  // latest of its previous node's (the run's start for a location's first) and its edges' sources, at
  // least 0, and 0 for a hub. `bound_by`: what came latest, kBoundByPrevious, kBoundByStart (a
  // location's first node), or the incoming edge (index into edges; the first of equals).
  struct Step {
    double cost = 0;
    std::int32_t bound_by = kBoundByPrevious;
  };
  Step measured(std::uint32_t node) const { return measured(node, in_edges(node)); }
  // The same, with the node's in_edges already looked up (a pass that reads them too).
  Step measured(std::uint32_t node, EdgeRange in) const {
    Step step;
    double ready = -std::numeric_limits<double>::infinity();
    const bool hub = is_hub(node);
    if (!hub) {
      const std::uint32_t before = previous(node);
      ready = before == kNoNode ? start_ns : time[before];
      step.bound_by = before == kNoNode ? kBoundByStart : kBoundByPrevious;
    }
    for (const std::uint32_t e : in) {
      const std::uint32_t source = edges[e].source;
      if (source == node || time[source] <= ready) continue;
      ready = time[source];
      step.bound_by = static_cast<std::int32_t>(e);
    }
    if (!hub) step.cost = std::max(0.0, time[node] - ready);
    return step;
  }
  double cost(std::uint32_t node) const { return measured(node).cost; }
  std::int32_t bound_by(std::uint32_t node) const { return measured(node).bound_by; }
};

// Whether location node k at time t ends the run rather than `last` at `end` (kNoNode: none yet):
// later, or as late and numbered after it (the run's later location's). Not the last a walk reaches:
// which node ends a run must not depend on the order a pass walks the nodes in, which on a graph cut
// into parts (graph_part.hpp) is each part's own.
inline bool ends_later(double t, std::uint32_t k, double end, std::uint32_t last) {
  return t > end || (t == end && (last == kNoNode || k > last));
}

// A phase's span on the given node times (measured or replayed): from its earliest begin to its
// latest end over the ranks.
struct PhaseSpan {
  double begin_ns = 0, end_ns = 0;
  double length() const { return end_ns - begin_ns; }
};
PhaseSpan phase_span(const GraphPhase& phase, const std::vector<double>& time);

// Builds the graph of a run's traces and their matched communication (messages.hpp), its nodes
// at the corrected times, with an order in which every node comes after its dependencies. Pure.
ActivityGraph build_activity_graph(const TraceRun& traces, const Communication& communication);

// build_activity_graph in its two halves, so that the traces can be read for the graph while their
// communication is matched (analyse_traces runs the two at once): constructing reads every rank's
// events into its locations' nodes, which needs nothing matched; `finish` links them. The same graph
// as build_activity_graph's. `traces` must outlive the draft.
//
// On two threads: a draft made `unread` reads when `read` is called, and `help_read`, called on
// another thread once it is free (after the matching), reads ranks ahead of it, which `read` then
// makes nodes in turn: the same draft. help_read returns at once when `read` has not begun (then
// `read` reads alone), and otherwise once no rank is left to read; the draft must outlive it.
//
// Before reading, the draft counts the nodes it will make, a pass over every event of its own; given
// `counter()` as the observer of another pass over all_thread_streams (match_communication's) that
// read every stream to its end before `read`, it counts beside that pass instead (on one thread:
// the whole trace is then decoded twice, not three times).
class GraphBuilder;
// The run's numbers of a part's names (graph_part_build.hpp): for each of its intervals, operations'
// names and interval stacks, as it numbered them, the run's number.
struct RunNumbers {
  std::vector<std::uint32_t> intervals, operations, frames;
};
// An operation's nodes in a draft's numbers (kNoNode: none), its kind and name.
struct OperationNodes {
  std::uint32_t begin = kNoNode, end = kNoNode, inner = kNoNode;
  std::uint16_t kind = 0;
  OperationName name = 0;
};
struct PartLinks;
struct ShmemCalls;
class ActivityGraphDraft {
 public:
  explicit ActivityGraphDraft(const TraceRun& traces);
  struct Unread {};
  static constexpr Unread unread{};
  ActivityGraphDraft(const TraceRun& traces, Unread);
  void read();
  void help_read();
  StreamObserver& counter();
  ActivityGraphDraft(ActivityGraphDraft&&) noexcept;
  ActivityGraphDraft& operator=(ActivityGraphDraft&&) noexcept;
  ~ActivityGraphDraft();
  ActivityGraph finish(const Communication& communication) &&;

  // A part's draft, of its ranks' traces (graph_part_build.hpp): its graph as read, not linked, with
  // the intervals, operations and interval stacks numbered as its reading met them...
  const ActivityGraph& unlinked() const;
  // ... and numbered as the run's: `intervals`, `operations` and `stacks` become the graph's tables,
  // and every number of the part's, its `numbers` in them.
  void renumber(std::vector<GraphInterval> intervals, std::vector<std::string> operations,
                std::vector<StackFrame> stacks, const RunNumbers& numbers);
  // Whether any of its ranks switched recording (the run's phases come from the switches)...
  bool switched_recording() const;
  // ... and, when another part's did and none of its own did, its ranks' phases made all the same: the
  // whole graph gives every rank its bounds in the phases once any rank switched.
  void make_phases_of_unswitched_ranks();
  // ... and given the run's start, end, events and count of phases (each part's ranks' bounds kept).
  void set_run_extent(double start_ns, double end_ns, std::uint64_t events, std::size_t phases);
  // The operation of a rank's thread whose event was the `index`-th of its stream, or none.
  bool operation_nodes(std::int64_t rank, std::uint32_t thread, std::uint64_t index,
                       OperationNodes& out) const;
  // Its ranks' calls of OpenSHMEM barriers and collectives (shmem_instances.hpp), their nodes numbered
  // from `first_node`: every part's make the run's instances.
  ShmemCalls shmem_calls(std::uint32_t first_node) const;
  // Slots after the nodes for other parts' nodes and hubs (part_links.hpp), at these times.
  void add_slots(const std::vector<double>& times);
  // The collective instances that make hubs (part_links.hpp).
  void plan_collective_hubs(const Communication& communication, PartLinks& links,
                            std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>>& counted);
  // Links the part's nodes: the edges into its own nodes and hubs, not ordered.
  ActivityGraph link_part(const Communication& communication, PartLinks& links) &&;

 private:
  std::unique_ptr<GraphBuilder> builder_;
};

}  // namespace parperf::analysis
