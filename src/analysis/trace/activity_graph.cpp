#include "analysis/trace/activity_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/trace/chunked_vector.hpp"
#include "analysis/trace/graph_points.hpp"
#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/node_counting.hpp"
#include "analysis/trace/ordered_share.hpp"
#include "analysis/trace/part_links.hpp"
#include "analysis/trace/rank_reading.hpp"
#include "analysis/trace/shmem_instances.hpp"
#include "analysis/trace/task_links.hpp"
#include "format/shmem_active_set.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {

using namespace graph_points;  // a thread's points and operations as read (graph_points.hpp)

namespace {

// Puts the linked edges into g.edges by target, and indexes them (ActivityGraph::in_edges): a
// counting sort, stable as the edges' order within a target matters (bound_by names the first of
// equal sources). Placed from the last edge back, each at its target's end, which moves the target's
// entry after it to the target's start; shifting by one then gives every target its start.
// `linked[i]` leads into `targets[i]`, which becomes the target's number among the nodes with edges.
template <class Edges, class Targets>
void place_edges(ActivityGraph& g, const Edges& linked, Targets& targets) {
  RankBitmap& marked = g.with_in_edges;
  marked.assign(g.time.size());
  for (const std::uint32_t target : targets) marked.mark(target);
  marked.index();
  std::vector<std::uint32_t>& begin = g.in_edge_begin;
  begin.assign(std::size_t{marked.marked()} + 1, 0);
  for (std::uint32_t& target : targets) ++begin[(target = marked.count_before(target)) + 1];
  for (std::size_t r = 0; r + 1 < begin.size(); ++r) begin[r + 1] += begin[r];
  g.edges.resize(linked.size());
  for (std::size_t e = linked.size(); e-- > 0;) g.edges[--begin[targets[e] + 1]] = linked[e];
  std::move(begin.begin() + 1, begin.end(), begin.begin());
  begin.back() = static_cast<std::uint32_t>(g.edges.size());
}

}  // namespace

// Out of the anonymous namespace only so that activity_graph.hpp can name it for ActivityGraphDraft.
class GraphBuilder {
 public:
  explicit GraphBuilder(const TraceRun& traces)
      : traces_(traces), reads_(traces.ranks.size()), share_(traces.ranks.size(), 2) {
    graph_.stacks.push_back({});
    graph_.operations.emplace_back();
  }

  // The first half: every rank's events into points, and the points into nodes. Needs nothing matched.
  // Rank by rank: a rank's points are let go once they are nodes, and only one rank's are held beside
  // the nodes (all of them were, 26 bytes an event, where building the graph held the most); two
  // when a helper (help_read) reads one while this thread commits another (OrderedShare's window).
  void read() {
    share_.own(
        [&] {
          reserve_nodes();
          share_.set_window(ranks_read_at_once());
          graph_.start_ns = std::numeric_limits<double>::infinity();
          graph_.end_ns = -std::numeric_limits<double>::infinity();
        },
        [&](std::size_t r) { read_one(r); },
        [&](std::size_t r) {  // in rank order: the nodes are numbered by location
          commit_rank(traces_.ranks[r], std::move(reads_[r]));
          reads_[r] = {};
        });
    if (graph_.locations.empty() || graph_.start_ns > graph_.end_ns) graph_.start_ns = graph_.end_ns = 0;
    make_phases(!switches_.empty());
  }
  StreamObserver& counter() {
    if (!counter_) counter_.emplace(traces_);
    return *counter_;
  }
  bool switched_recording() const { return !switches_.empty(); }
  // A part's, when another part's ranks switched and its own did not.
  void make_phases_of_run() { make_phases(true); }
  // Two ranks' points may be held at once (a helper's read ahead) only when no rank holds more than
  // an eighth of the run's: the heap's peak then grows by at most an eighth of the points (4 bytes an
  // event in a halo exchange), not by half of them, as in a run of two ranks it would.
  std::size_t ranks_read_at_once() const {
    std::size_t total = 0, largest = 0;
    for (std::size_t r = 0; r < counts_.rank_begin.size(); ++r) {
      std::size_t points = 0;
      for (const LocationSize& l : counts_.of_rank(r)) points += l.points;
      total += points;
      largest = std::max(largest, points);
    }
    return largest * 8 <= total ? 2 : 1;
  }
  // Reads ranks ahead of read() on another thread until none is left (returns at once if read() has
  // not begun). The builder must outlive the call, which may still be reading a rank when read()
  // has stopped at an error.
  void help_read() {
    share_.help([&](std::size_t r) { read_one(r); });
  }

  const ActivityGraph& unlinked() const { return graph_; }
  void renumber(std::vector<GraphInterval> intervals, std::vector<std::string> operations,
                std::vector<StackFrame> stacks, const RunNumbers& numbers) {
    for (std::uint32_t& frame : graph_.stack) frame = numbers.frames[frame];
    for (OperationName& name : graph_.operation) name = static_cast<OperationName>(numbers.operations[name]);
    for (LocationBuild& l : built_)
      for (Operation& op : l.operations) op.name = static_cast<OperationName>(numbers.operations[op.name]);
    graph_.intervals = std::move(intervals);
    graph_.operations = std::move(operations);
    graph_.stacks = std::move(stacks);
    interval_ids_.clear();
    operation_ids_.clear();
    frame_ids_.clear();
    for (std::uint32_t i = 0; i < graph_.intervals.size(); ++i) {
      const GraphInterval& v = graph_.intervals[i];
      interval_ids_.emplace(std::make_tuple(v.name, v.kind, v.file, v.line), i);
    }
    for (std::uint32_t o = 0; o < graph_.operations.size(); ++o)
      operation_ids_.emplace(graph_.operations[o], o);
    for (std::uint32_t f = 1; f < graph_.stacks.size(); ++f)
      frame_ids_.emplace(std::pair(graph_.stacks[f].parent, graph_.stacks[f].interval), f);
  }

  void set_run_extent(double start_ns, double end_ns, std::uint64_t events, std::size_t phases) {
    graph_.start_ns = start_ns;
    graph_.end_ns = end_ns;
    graph_.events = events;
    graph_.phases.resize(std::max(graph_.phases.size(), phases));
  }

  // The second half: the nodes linked by the matched communication.
  ActivityGraph link(const Communication& communication) {
    communication_ = &communication;
    link_messages();
    link_collectives();
    link_openmp();
    link_remote_locks(communication_->window_locks, &GraphCounts::window_lock_handovers,
                      &GraphUnlinked::window_waits);
    link_remote_locks(communication_->shmem_locks, &GraphCounts::shmem_lock_handovers,
                      &GraphUnlinked::shmem_locks);
    link_remote_locks(communication_->window_epochs, &GraphCounts::window_epoch_links,
                      &GraphUnlinked::window_waits, EdgeKind::window_epoch);
    ShmemCalls shmem;  // the run's calls, or the part's links hold every part's
    std::vector<ShmemInstance> instances;
    if (!part_) {
      shmem = shmem_calls(0);
      instances = shmem_instances(shmem.calls, shmem.pes);
    }
    shmem_calls_ = part_ ? &part_->shmem_calls : &shmem.calls;
    shmem_instances_ = part_ ? &part_->shmem_instances : &instances;
    graph_.unlinked.shmem_collectives += part_ ? part_->shmem_without_set : shmem.without_set;
    link_shmem();
    link_transfer_completions();
    link_shmem_sets();
    shmem_calls_ = nullptr;
    shmem_instances_ = nullptr;
    link_openmp_tasks();
    index_edges();
    if (!part_) order_nodes();  // a part's order is found with the other parts' (part_order.hpp)
    return std::move(graph_);
  }

  // Links a part's nodes (part_links.hpp): `links` must outlive the call.
  ActivityGraph link_part(const Communication& communication, PartLinks& links) {
    part_ = &links;
    return link(communication);
  }

 private:
  std::uint32_t intern_interval(GraphInterval interval) {
    const auto key = std::make_tuple(interval.name, interval.kind, interval.file, interval.line);
    const auto [it, added] =
        interval_ids_.try_emplace(key, static_cast<std::uint32_t>(graph_.intervals.size()));
    if (added) graph_.intervals.push_back(std::move(interval));
    return it->second;
  }
  // The graph numbers its operations' names in 16 bits, 2 bytes a node (a run's MPI, OpenSHMEM and
  // OpenMP operations have a few dozen): a trace with more is refused, naming its file.
  std::uint32_t intern_operation(std::string_view name, const std::string& file) {
    const auto [it, added] =
        operation_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(graph_.operations.size()));
    if (added) {
      if (graph_.operations.size() > std::numeric_limits<OperationName>::max()) {
        operation_ids_.erase(it);
        throw std::length_error(
            fmt::format("{}: the run's traces name more than {} different operations, more "
                        "than the activity graph can number",
                        file, std::numeric_limits<OperationName>::max()));
      }
      graph_.operations.emplace_back(name);
    }
    return it->second;
  }
  std::string_view name_of(const Operation& op) const { return graph_.operations[op.name]; }
  // shmem_barrier_all and shmem_sync_all join every PE: matched by name, not by an active set.
  bool is_barrier_all(const Operation& op) const {
    return name_of(op) == "shmem_barrier_all" || name_of(op) == "shmem_sync_all";
  }
  std::uint32_t push_frame(std::uint32_t parent, std::uint32_t interval) {
    const auto [it, added] =
        frame_ids_.try_emplace(std::pair(parent, interval), static_cast<std::uint32_t>(graph_.stacks.size()));
    if (added) graph_.stacks.push_back({parent, interval, graph_.stacks[parent].depth + 1});
    return it->second;
  }

  // A rank read (read_rank) made nodes, after the ranks before it: its intervals and operations given
  // the run's numbers, in the order the rank met them (a name new to the run is numbered as the
  // reading in turn would have numbered it).
  void commit_rank(const RankTrace& rank, RankRead&& read) {
    std::vector<std::uint32_t> intervals(read.intervals.size()), operations(read.operation_names.size());
    for (std::size_t i = 0; i < intervals.size(); ++i)
      intervals[i] = intern_interval(std::move(read.intervals[i]));
    for (std::size_t i = 0; i < operations.size(); ++i)
      operations[i] = intern_operation(read.operation_names[i], rank.file);
    const std::size_t first = built_.size();
    for (LocationBuild& l : read.locations) {
      for (Point& p : l.points)
        if (p.role == Role::enter)
          p.ref = intervals[p.ref];
        else if (p.role == Role::op_begin)
          p.ref = operations[p.ref];
      for (Operation& op : l.operations) op.name = static_cast<OperationName>(operations[op.name]);
      built_.push_back(std::move(l));
    }
    for (const auto& [at, root] : read.broadcast_roots)
      broadcast_roots_[std::pair(first + at.first, at.second)] = root;
    graph_.events += read.events;
    make_nodes(first);
  }

  // The node vectors reserved for every point and hub (node_counting.hpp) before the first node is
  // made: they then hold what the graph needs, not up to twice that from growing by doubling.
  void reserve_nodes() {
    counts_ = counter_ && counter_->ended() ? counter_->counts() : count_nodes(traces_);
    counter_.reset();
    // The graph numbers its nodes in 32 bits: a run that would make more is refused before any is made,
    // where its numbers would wrap.
    if (counts_.nodes >= kNoNode)
      throw std::length_error(fmt::format(
          "{}: the run's traces make up to {} activity-graph nodes, more than the graph can number ({})",
          std::filesystem::path(traces_.ranks.front().file).parent_path().string(), counts_.nodes,
          kNoNode - 1));
    graph_.time.reserve(counts_.nodes);
    graph_.segment.reserve(counts_.nodes);
    graph_.stack.reserve(counts_.nodes);
    graph_.operation.reserve(counts_.nodes);
  }
  // Reads rank r (rank_reading.hpp): only the traces and what was counted, on either thread.
  void read_one(std::size_t r) {
    const RankTrace& rank = traces_.ranks[r];
    read_rank(rank, traces_.clocks.of(rank.rank), counts_.of_rank(r), reads_[r]);
  }

  // Turns the points of one rank's locations (built_[first] on) into nodes, with their segments,
  // location by location in thread order.
  void make_nodes(std::size_t first) {
    // Workers: the rank's threads after its first that begin parallel regions.
    std::uint32_t first_thread = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t i = first; i < built_.size(); ++i)
      first_thread = std::min(first_thread, built_[i].thread);
    // The master's stacks at each region instance it forked, for its workers to continue.
    std::map<std::int64_t, std::uint32_t> forked_stack;
    std::vector<std::size_t> sequence(built_.size() - first);
    for (std::size_t i = 0; i < sequence.size(); ++i) sequence[i] = first + i;
    std::stable_sort(sequence.begin(), sequence.end(),
                     [&](std::size_t a, std::size_t b) { return built_[a].thread < built_[b].thread; });
    build_location_.resize(built_.size());
    for (const std::size_t i : sequence) {
      LocationBuild& l = built_[i];
      const bool regions =
          std::any_of(l.points.begin(), l.points.end(), [](const Point& p) { return p.parallel; });
      const bool worker = l.thread != first_thread && regions;
      // Each parallel-region enter's instance: the match of the next join barrier, as (enter's point,
      // instance) in the points' order. A region's enter and its join barrier are a few of the
      // location's points: listed, not marked in arrays of 8 bytes a point (16 MB for a thread of a
      // million points, held where building the graph holds the most).
      std::vector<std::pair<std::uint32_t, std::int64_t>> instances;
      if (regions) {
        std::vector<std::pair<std::uint32_t, std::int64_t>> joins;  // (begin point, match)
        for_each_operation(l, [&](std::size_t, const Operation& op, std::int64_t match) {
          if (op.begin != kNoNode && match != 0 && is_kind(op.kind, SiteKind::omp_join_barrier))
            joins.emplace_back(op.begin, match);
        });
        std::sort(joins.begin(), joins.end());  // (a point begins one operation)
        std::vector<std::uint32_t> pending;
        auto join = joins.begin();
        for (std::uint32_t p = 0; p < l.points.size(); ++p) {
          if (l.points[p].role == Role::enter && l.points[p].parallel) pending.push_back(p);
          if (join != joins.end() && join->first == p) {
            if (!pending.empty()) {
              instances.emplace_back(pending.back(), join->second);
              pending.pop_back();
            }
            ++join;
          }
        }
        std::sort(instances.begin(), instances.end());
      }
      auto instance = instances.begin();
      // The instance of the region entered at point p (0: none), for p increasing.
      const auto instance_at = [&](std::uint32_t p) -> std::int64_t {
        while (instance != instances.end() && instance->first < p) ++instance;
        return instance != instances.end() && instance->first == p ? instance->second : 0;
      };
      const std::uint32_t location = static_cast<std::uint32_t>(graph_.locations.size());
      GraphLocation g{l.rank, l.thread, worker, static_cast<std::uint32_t>(graph_.time.size()), 0};
      std::vector<std::uint32_t> stack = {0};  // frames
      std::vector<bool> own_region = {false};  // whether the frame is a region this thread entered
      std::uint32_t open_regions = 0;
      // Operations under way, with the stack depth they began at: an interval begun inside one (a task
      // run in a barrier, a critical section's body) is work again.
      struct OpenOperation {
        SegmentKind kind;
        std::uint32_t name;
        std::size_t depth;
      };
      std::vector<OpenOperation> open_ops;
      bool paused = false;  // since a switch off: nothing of the location was recorded
      std::vector<std::uint32_t> nodes(l.points.size());
      for (std::uint32_t p = 0; p < l.points.size(); ++p) {
        const Point& point = l.points[p];
        const std::uint32_t node = static_cast<std::uint32_t>(graph_.time.size());
        nodes[p] = node;
        SegmentKind segment = SegmentKind::useful;
        std::uint32_t operation = 0;
        if (p == 0)
          segment = SegmentKind::startup;
        else if (paused)
          segment = SegmentKind::paused;
        else if (!open_ops.empty() && stack.size() <= open_ops.back().depth)
          segment = open_ops.back().kind, operation = open_ops.back().name;
        else if (worker && open_regions == 0)
          segment = SegmentKind::idle;
        graph_.time.push_back(point.time);
        graph_.segment.push_back(segment);
        graph_.stack.push_back(stack.back());
        graph_.operation.push_back(static_cast<OperationName>(operation));
        switch (point.role) {
          case Role::enter: {
            std::uint32_t base = stack.back();
            if (point.parallel) {
              if (const std::int64_t region = instance_at(p); region != 0) {
                if (!worker)
                  forked_stack.emplace(region, stack.back());
                else if (const auto f = forked_stack.find(region);
                         f != forked_stack.end() && open_regions == 0)
                  base = f->second;  // the worker continues its master's intervals
                region_enters_[std::pair(l.rank, region)].push_back(node);
              }
              ++open_regions;
            }
            stack.push_back(push_frame(base, point.ref));
            own_region.push_back(point.parallel);
            break;
          }
          case Role::leave:
            if (stack.size() > 1) {
              if (own_region.back() && open_regions > 0) --open_regions;
              stack.pop_back();
              own_region.pop_back();
            }
            break;
          case Role::op_begin:
            open_ops.push_back({point.op_kind, point.ref, stack.size()});
            break;
          case Role::op_end:
          case Role::acquired:
            if (!open_ops.empty()) open_ops.pop_back();
            break;
          case Role::paused:
          case Role::resumed:
            paused = point.role == Role::paused;
            switches_.push_back({l.rank, node, !paused});
            break;
          case Role::release:
          case Role::arrived:
          case Role::created:
            break;
        }
      }
      g.end = static_cast<std::uint32_t>(graph_.time.size());
      if (g.end > g.first) {
        graph_.start_ns = std::min(graph_.start_ns, graph_.time[g.first]);
        graph_.end_ns = std::max(graph_.end_ns, graph_.time[g.end - 1]);
      }
      location_of_build_.push_back({std::pair(l.rank, l.thread), i});  // in (rank, thread) order
      build_location_[i] = location;
      graph_.locations.push_back(g);
      for (Operation& op : l.operations)
        for (std::uint32_t* q : op.points())
          if (*q != kNoNode) *q = nodes[*q];
      l.tasks.remap([&](std::uint32_t p) { return nodes[p]; });
      // Nodes now: not held beside the graph while it is linked, where building it holds the most.
      l.points = std::vector<Point>();  // (= {} would only clear it)
    }
  }

  // The phases of every rank from its switches (none when no rank switched). Recording is on from
  // a rank's first node unless its first switch turns it on (the run started paused): the phase
  // begins there. A span in which nothing was recorded is no phase: a program that switches
  // recording off first thing (MPI_Pcontrol(0) after MPI_Init, as tools' docs advise) has its first
  // phase where it switches recording on.
  // `run_switched`: whether any rank of the run switched (a part's ranks may not have).
  void make_phases(bool run_switched) {
    if (!run_switched) return;
    struct Extent {
      std::uint32_t first = kNoNode, last = kNoNode;  // its earliest and latest node
      std::vector<const GraphLocation*> locations;
    };
    std::map<std::int64_t, Extent> ranks;
    for (const GraphLocation& l : graph_.locations) {
      if (l.end == l.first) continue;
      Extent& x = ranks[l.rank];
      x.locations.push_back(&l);
      if (x.first == kNoNode || graph_.time[l.first] < graph_.time[x.first]) x.first = l.first;
      if (x.last == kNoNode || graph_.time[l.end - 1] > graph_.time[x.last]) x.last = l.end - 1;
    }
    // Whether any location of the rank has a node strictly inside (begin, end): its nodes are in time
    // order (the repair keeps them so).
    const auto recorded_between = [&](const Extent& x, std::uint32_t begin, std::uint32_t end) {
      const double from = graph_.time[begin], to = graph_.time[end];
      for (const GraphLocation* l : x.locations) {
        const auto first = graph_.time.begin() + l->first, last = graph_.time.begin() + l->end;
        const auto after = std::upper_bound(first, last, from);
        for (auto t = after; t != last && *t < to; ++t) {
          const auto node = static_cast<std::uint32_t>(t - graph_.time.begin());
          if (node != begin && node != end) return true;
        }
      }
      return false;
    };
    std::stable_sort(switches_.begin(), switches_.end(), [&](const Switch& a, const Switch& b) {
      return std::pair(a.rank, graph_.time[a.node]) < std::pair(b.rank, graph_.time[b.node]);
    });
    const auto add = [&](std::size_t& index, const Extent& x, std::int64_t rank, std::uint32_t begin,
                         std::uint32_t end) {
      if (!recorded_between(x, begin, end)) return;
      if (graph_.phases.size() <= index) graph_.phases.resize(index + 1);
      graph_.phases[index++].ranks.push_back({rank, begin, end});
    };
    auto s = switches_.begin();
    for (const auto& [rank, extent] : ranks) {
      bool on = true;
      std::uint32_t begin = extent.first;
      std::size_t index = 0;
      for (; s != switches_.end() && s->rank < rank; ++s) {
      }
      for (; s != switches_.end() && s->rank == rank; ++s) {
        if (s->on) {
          if (!on || index == 0) begin = s->node;  // switched on again (or the run started paused)
        } else if (on) {
          add(index, extent, rank, begin, s->node);
        }
        on = s->on;
      }
      if (on) add(index, extent, rank, begin, extent.last);
    }
  }

  // The operation of a rank's thread whose event was the `index`-th of its stream.
  const Operation* operation(std::int64_t rank, std::uint32_t thread, std::uint64_t index) const {
    if (part_ && !part_->own_rank(rank)) {  // another part's, as it sent it
      const auto r = part_->remote.find({rank, thread, index});
      return r == part_->remote.end() ? nullptr : &r->second;
    }
    const auto key = std::pair(rank, thread);
    const auto l = std::lower_bound(location_of_build_.begin(), location_of_build_.end(), key,
                                    [](const auto& entry, const auto& k) { return entry.first < k; });
    if (l == location_of_build_.end() || l->first != key) return nullptr;
    const LocationBuild& b = built_[l->second];
    const std::uint32_t o = b.operation_events.rank(index);
    return o == RankBitmap::kUnmarked ? nullptr : &b.operations[o];
  }
  // A call's operation (its begin and end are nodes once the nodes are made), or null when it has none.
  const Operation* operation(const CallSide& side) const {
    return operation(side.rank, side.thread, side.index);
  }

  void edge(std::uint32_t source, std::uint32_t target, EdgeKind kind, std::uint64_t bytes = 0,
            std::uint8_t hops = 1) {
    // A part keeps the edges into its own nodes and hubs (and counts those it cannot link): another
    // part's node is its to link.
    if (part_ && target != kNoNode && !part_->owns(target)) return;
    if (part_ && source == PartLinks::kRemoteNoNode) source = kNoNode;
    if (source == kNoNode || target == kNoNode) {
      ++graph_.unlinked.outside_window;
      return;
    }
    linked_edges_.push_back({source, kind, hops, bytes});
    edge_targets_.push_back(target);
  }

  // A hub; on a part (`instance`: a collective's, else an OpenMP barrier's), the run's hub of a
  // collective whose owner is another part is a slot standing for it.
  std::uint32_t hub(double time,
                    const std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>* instance = nullptr) {
    if (part_) {
      const std::uint32_t node = static_cast<std::uint32_t>(graph_.time.size());
      if (instance) {
        const auto& [global, owner] = part_->collective_hubs.at(*instance);
        part_->slot_global.push_back(global);
        part_->slot_owner.push_back(owner);
      } else {
        part_->openmp_hubs.push_back(node);
        part_->slot_global.push_back(kNoNode);  // numbered once every part's are counted
        part_->slot_owner.push_back(part_->part);
      }
    }
    return push_hub(time);
  }
  // An OpenSHMEM instance's hub; on a part, a slot numbered once every part's OpenMP barriers' hubs
  // are counted (the run makes these after those).
  std::uint32_t shmem_hub(const ShmemInstance& in) {
    if (part_) {
      part_->shmem_hubs.emplace_back(static_cast<std::uint32_t>(graph_.time.size()), in.hub);
      part_->slot_global.push_back(kNoNode);
      part_->slot_owner.push_back(in.owner);
    }
    return push_hub(in.hub_time);
  }
  std::uint32_t push_hub(double time) {
    const std::uint32_t node = static_cast<std::uint32_t>(graph_.time.size());
    graph_.time.push_back(time);
    graph_.segment.push_back(SegmentKind::mpi);
    graph_.stack.push_back(0);
    graph_.operation.push_back(0);
    return node;
  }

  void link_messages() {
    // (The run's counts: on a part, the first's.)
    if (!part_ || part_->part == 0) {
      graph_.unlinked.sends = communication_->unmatched_sends;
      graph_.unlinked.receives = communication_->unmatched_receives;
    }
    for (const Message& m : communication_->messages) {
      const Operation* send = operation(m.send);
      const Operation* receive = operation(m.receive);
      const bool counts = !part_ || part_->own_rank(m.receive.rank);  // a message is its receiver's
      if (!send || !receive) {
        if (counts) ++graph_.unlinked.outside_window;
        continue;
      }
      edge(send->begin, receive->end, EdgeKind::message, m.bytes);
      if (counts) ++graph_.linked.messages;
      // A blocking send that ended after its receive was posted may have waited for it.
      if (may_block_until_posted(m.send_kind) && m.send.end_ns >= m.receive.start_ns &&
          m.send.start_ns < m.receive.start_ns)
        edge(receive->begin, send->end, EdgeKind::late_receiver, 0);
    }
  }

  // How a collective instance is linked: from its root's arrival to the others' ends (a broadcast or
  // scatter), or from every arrival through a hub to every end (a rooted one: to the root's end only,
  // from the others'); or not at all, when it only starts (MPI_I...) or a member's call is none of the
  // graph's operations.
  struct CollectiveLinks {
    bool linked = false;
    std::vector<const Operation*> members;
    bool rooted = false, from_root = false;
    std::size_t root = 0;
  };
  CollectiveLinks collective_links(const CollectiveInstance& c) const {
    CollectiveLinks l;
    if (!c.blocking) return l;
    for (const CallSide& m : c.members) l.members.push_back(operation(m));
    if (std::any_of(l.members.begin(), l.members.end(), [](const Operation* op) { return !op; })) return l;
    l.linked = true;
    const auto root =
        std::find_if(c.members.begin(), c.members.end(), [&](const CallSide& m) { return m.rank == c.root; });
    l.rooted = c.root >= 0 && root != c.members.end();
    l.root = l.rooted ? static_cast<std::size_t>(root - c.members.begin()) : 0;
    l.from_root = l.rooted && (is_kind(c.kind, SiteKind::mpi_broadcast) ||
                               std::string_view(c.name).find("Scatter") != std::string_view::npos);
    return l;
  }

  void link_collectives() {
    // (The run's count: on a part, the first's.)
    if (!part_ || part_->part == 0)
      graph_.unlinked.incomplete_collectives = communication_->incomplete_collectives;
    for (const CollectiveInstance& c : communication_->collectives) {
      // On a part, an instance is counted by its first member's part.
      const bool counts = !part_ || part_->own_rank(c.members.front().rank);
      const CollectiveLinks l = collective_links(c);
      if (!c.blocking) {
        if (counts) ++graph_.unlinked.nonblocking_collectives;
        continue;
      }
      if (!l.linked) {
        if (counts) ++graph_.unlinked.outside_window;
        continue;
      }
      if (counts) ++graph_.linked.collectives;
      const auto hops = static_cast<std::uint8_t>(std::bit_width(c.members.size() - 1));
      const std::uint64_t bytes = 0;  // the members' data are not in the trace's collective events
      const std::vector<const Operation*>& members = l.members;
      const std::size_t r = l.root;
      if (l.from_root) {
        for (std::size_t i = 0; i < members.size(); ++i)
          if (i != r) edge(members[r]->begin, members[i]->end, EdgeKind::collective, bytes, hops);
        continue;
      }
      double last = 0;
      for (const CallSide& m : c.members) last = std::max(last, m.start_ns);
      const std::tuple instance(c.members_hash, c.ordinal, c.sequence);
      const std::uint32_t h = hub(last, &instance);
      for (std::size_t i = 0; i < members.size(); ++i)
        if (!l.rooted || i != r) edge(members[i]->begin, h, EdgeKind::collective, bytes, hops);
      for (std::size_t i = 0; i < members.size(); ++i)
        if (!l.rooted || i == r) edge(h, members[i]->end, EdgeKind::collective, bytes, hops);
    }
  }

 public:
  // On a part (part_links.hpp, its other parts' operations known): the collective instances that
  // make hubs, by their key, with each hub's owner (the part of its first source, else of its first
  // target in the run's node order, else the first part); `counted`: those this part counts (the run
  // numbers the hubs in the instances' order).
  void plan_collective_hubs(const Communication& communication, PartLinks& links,
                            std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>>& counted) {
    part_ = &links;
    for (const CollectiveInstance& c : communication.collectives) {
      const CollectiveLinks l = collective_links(c);
      if (!l.linked || l.from_root) continue;
      const std::tuple key(c.members_hash, c.ordinal, c.sequence);
      std::uint32_t owner = kNoNode;
      for (std::size_t i = 0; i < l.members.size() && owner == kNoNode; ++i)
        if ((!l.rooted || i != l.root) && exists(l.members[i]->begin))
          owner = links.part_of_rank.at(c.members[i].rank);
      if (owner == kNoNode) {  // nothing leads into it: its first target's
        std::uint32_t first = kNoNode;
        for (std::size_t i = 0; i < l.members.size(); ++i)
          if ((!l.rooted || i == l.root) && exists(l.members[i]->end) &&
              (first == kNoNode || run_node(l.members[i]->end) < run_node(l.members[first]->end)))
            first = static_cast<std::uint32_t>(i);
        owner = first == kNoNode ? 0 : links.part_of_rank.at(c.members[first].rank);
      }
      links.collective_hubs[key] = {kNoNode, owner};
      if (links.own_rank(c.members.front().rank)) counted.push_back(key);
    }
    part_ = nullptr;
  }
  bool operation_nodes(std::int64_t rank, std::uint32_t thread, std::uint64_t index,
                       OperationNodes& out) const {
    const Operation* op = operation(rank, thread, index);
    if (!op) return false;
    out = {op->begin, op->end, op->inner, op->kind, op->name};
    return true;
  }
  // Its locations' calls of OpenSHMEM barriers and collectives (shmem_instances.hpp), their nodes
  // numbered from `first_node` (a part's first node in the run).
  ShmemCalls shmem_calls(std::uint32_t first_node) const {
    ShmemCalls out;
    for (std::size_t b = 0; b < built_.size(); ++b) {
      const LocationBuild& l = built_[b];
      std::uint64_t barriers = 0;
      std::unordered_map<std::int64_t, std::uint64_t> calls;  // per active set
      bool shmem = false;
      for_each_operation(l, [&](std::size_t o, const Operation& op, std::int64_t match) {
        if (!format::is_shmem_kind(op.kind)) return;
        shmem = true;
        ShmemCall c;
        if (is_barrier_all(op)) {
          c.call = barriers++;
        } else if (is_shmem_set_collective(op.kind)) {
          format::ShmemActiveSet set;
          if (!format::shmem_active_set_of(match, set) || !set.contains(l.rank)) {
            ++out.without_set;
            return;
          }
          c.set = match;
          c.call = calls[match]++;
        } else {
          return;
        }
        c.rank = l.rank;
        c.thread = l.thread;
        c.index = l.operation_events.select(static_cast<std::uint32_t>(o));
        if (const auto root = broadcast_roots_.find(std::pair(b, o)); root != broadcast_roots_.end())
          c.root = root->second;
        if (op.begin != kNoNode) c.begin = first_node + op.begin, c.begin_time = graph_.time[op.begin];
        if (op.end != kNoNode) c.end = first_node + op.end;
        c.kind = op.kind;
        c.name = op.name;
        out.calls.push_back(c);
      });
      if (shmem) ++out.pes;
    }
    return out;
  }
  void add_slots(const std::vector<double>& times) {
    for (const double t : times) {
      graph_.time.push_back(t);
      graph_.segment.push_back(SegmentKind::useful);
      graph_.stack.push_back(0);
      graph_.operation.push_back(0);
    }
  }

 private:
  bool exists(std::uint32_t k) const { return k != kNoNode && k != PartLinks::kRemoteNoNode; }
  // The run's number of a part's node or slot.
  std::uint32_t run_node(std::uint32_t k) const {
    return k < part_->own_nodes ? part_->first_node + k : part_->slot_global[k - part_->own_nodes];
  }

  void link_openmp() {
    // Forks: the first thread to enter a region instance forked it.
    for (const auto& [key, enters] : region_enters_) {
      if (enters.size() < 2) continue;
      const std::uint32_t master = *std::min_element(
          enters.begin(), enters.end(),
          [&](std::uint32_t a, std::uint32_t b) { return graph_.time[a] < graph_.time[b]; });
      for (const std::uint32_t worker : enters)
        if (worker != master) {
          edge(master, worker, EdgeKind::fork);
          ++graph_.linked.forks;
        }
    }
    for (std::size_t i = 0; i < built_.size(); ++i) {
      const LocationBuild& l = built_[i];
      std::unordered_map<std::int64_t, std::uint32_t> passed;  // barriers passed per region instance
      for_each_operation(l, [&](std::size_t, const Operation& op, std::int64_t match) {
        if (is_openmp_barrier(op.kind) && match != 0)
          barriers_[std::tuple(l.rank, match, passed[match]++)].push_back(&op);
        if (is_openmp_lock(op.kind) && match != 0) locks_[std::pair(l.rank, match)].push_back(&op);
      });
    }
    for (const auto& [key, members] : barriers_) {
      if (members.size() < 2) continue;
      double last = 0;
      for (const Operation* m : members)
        if (m->arrived() != kNoNode) last = std::max(last, graph_.time[m->arrived()]);
      const std::uint32_t h = hub(last);
      for (const Operation* m : members) edge(m->arrived(), h, EdgeKind::omp_barrier);
      for (const Operation* m : members) edge(h, m->end, EdgeKind::omp_barrier);
      ++graph_.linked.openmp_barriers;
    }
    for (auto& [key, acquisitions] : locks_) {
      std::erase_if(acquisitions, [](const Operation* op) { return op->acquired() == kNoNode; });
      std::stable_sort(acquisitions.begin(), acquisitions.end(), [&](const Operation* a, const Operation* b) {
        return graph_.time[a->acquired()] < graph_.time[b->acquired()];
      });
      for (std::size_t k = 1; k < acquisitions.size(); ++k) {
        edge(acquisitions[k - 1]->release(), acquisitions[k]->acquired(), EdgeKind::lock);
        ++graph_.linked.lock_handovers;
      }
    }
  }

  // An MPI window's or OpenSHMEM lock from its previous holder's release to its next holder's
  // acquisition: the end of the unlock to the end of the lock (window_locks.hpp), counted in `linked`;
  // the acquisitions not linked in `unlinked`. On a part, a handover is its acquisition's. A
  // post-start-complete-wait link (EdgeKind::window_epoch) leaves its post's or complete's begin
  // (window_epochs.hpp).
  void link_remote_locks(const LockHandovers& locks, std::uint64_t GraphCounts::*linked,
                         std::uint64_t GraphUnlinked::*unlinked, EdgeKind kind = EdgeKind::remote_lock) {
    for (const LockHandover& h : locks.handovers) {
      const bool counts = !part_ || part_->own_rank(h.acquisition.rank);
      const Operation* release = operation(h.release);
      const Operation* acquisition = operation(h.acquisition);
      if (!release || !acquisition) {
        if (counts) ++graph_.unlinked.outside_window;
        continue;
      }
      edge(kind == EdgeKind::window_epoch ? release->begin : release->end, acquisition->end, kind);
      if (counts) ++(graph_.linked.*linked);
    }
    for (const CallSide& lock : locks.unlinked)
      if (!part_ || part_->own_rank(lock.rank)) ++(graph_.unlinked.*unlinked);
  }

  void link_shmem() {
    for (const ShmemInstance& in : *shmem_instances_)
      if ((*shmem_calls_)[in.first].set == 0) link_shmem_instance(in);
    std::unordered_map<std::int64_t, std::vector<const Operation*>> waits;  // by PE
    for (const LocationBuild& l : built_)
      for (const Operation& op : l.operations)
        if (format::is_shmem_kind(op.kind) && is_kind(op.kind, SiteKind::shmem_point_sync) &&
            !is_barrier_all(op) && name_of(op).find("wait") != std::string_view::npos)
          waits[l.rank].push_back(&op);
    // A wait ends after the last put into its PE from another PE that began before the wait ended.
    std::unordered_map<std::int64_t, std::vector<std::pair<double, const OneSidedTransfer*>>> puts;
    for (const OneSidedTransfer& t : communication_->one_sided)
      if (t.put && format::is_shmem_kind(t.kind) && t.target != t.origin.rank)
        puts[t.target].emplace_back(t.origin.start_ns, &t);
    for (auto& [pe, list] : puts)
      std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [pe, pe_waits] : waits)
      for (const Operation* w : pe_waits) {
        const auto list = puts.find(pe);
        if (w->end == kNoNode || list == puts.end()) {
          ++graph_.unlinked.shmem_waits;
          continue;
        }
        const double end = graph_.time[w->end];
        const auto after = std::upper_bound(list->second.begin(), list->second.end(), end,
                                            [](double t, const auto& p) { return t < p.first; });
        const Operation* put =
            after == list->second.begin() ? nullptr : operation((after - 1)->second->origin);
        if (!put) {
          ++graph_.unlinked.shmem_waits;
          continue;
        }
        edge(put->begin, w->end, EdgeKind::shmem_wait, (after - 1)->second->bytes);
        ++graph_.linked.shmem_waits;
      }
  }

  // shmem_quiet, and the quiet shmem_barrier_all and shmem_barrier imply. A put returns once its source
  // may be reused (a put_nbi, and a get_nbi, at once), before its data are at the target; a quiet
  // returns when every transfer the PE began since its previous quiet (or barrier) is complete, so its time
  // is their transfer. Over one link they complete one after the other: the last completes at max over i of
  // (begin_i + latency + (bytes_i + ... + bytes_n) / bandwidth), the drain time of a queue, which is at least
  // the first's begin plus all their bytes and the last's begin plus its own. One edge per transfer, from its
  // begin and carrying its bytes and those of every later one, gives the replay exactly that maximum (a node
  // waits for each edge's source + latency + bytes / bandwidth; replay.cpp, network_model.hpp). Puts to the
  // PE itself are copies complete on return, a blocking get has its data on return, and shmem_fence only
  // orders: none of them is linked. Contexts are not told apart: a context's quiet is taken to complete every
  // transfer of the PE.
  // MPI's puts, gets and accumulates are all non-blocking: each completes at its origin's next window
  // synchronization that completes transfers (a fence, an unlock, a flush, MPI_Win_complete), linked
  // the same way. Windows are not told apart, as contexts are not; a request-based call (MPI_Rput)
  // that an MPI_Wait completed earlier is taken to complete at that synchronization still.
  void link_transfer_completions() {
    // Per location, its transfers to other processes that a completion completes: (event index, bytes),
    // in order.
    std::map<std::pair<std::int64_t, std::uint32_t>, std::vector<std::pair<std::uint64_t, std::uint64_t>>>
        transfers;
    for (const OneSidedTransfer& t : communication_->one_sided)
      if (t.target != t.origin.rank &&
          (t.put || is_kind(t.kind, SiteKind::shmem_get_nbi) || is_kind(t.kind, SiteKind::mpi_one_sided)))
        transfers[std::pair(t.origin.rank, t.origin.thread)].emplace_back(t.origin.index, t.bytes);
    for (const LocationBuild& l : built_) {
      const auto found = transfers.find(std::pair(l.rank, l.thread));
      if (found == transfers.end()) continue;
      // By the operation of the transfer's event (operations are in their events' order); a transfer
      // whose event is none of the graph's operations completes nothing.
      std::vector<std::pair<std::uint64_t, std::uint64_t>>& list = found->second;
      for (auto& [event, bytes] : list) event = l.operation_events.rank(event);
      std::sort(list.begin(), list.end());
      auto next = list.begin();
      // OpenSHMEM's completions complete OpenSHMEM's transfers, MPI's MPI's (a program may use both).
      std::vector<std::pair<const Operation*, std::uint64_t>> outstanding[2];
      for (std::uint64_t o = 0; o < l.operations.size(); ++o) {
        const Operation& op = l.operations[o];
        const bool mpi = format::is_mpi_kind(op.kind);
        while (next != list.end() && next->first < o) ++next;
        if (next != list.end() && next->first == o) {
          outstanding[mpi].emplace_back(&op, next->second);
        } else if (completes_transfers(op) && !outstanding[mpi].empty()) {
          link_completion(outstanding[mpi], op);
          ++(mpi ? graph_.linked.window_completions : graph_.linked.shmem_quiets);
          outstanding[mpi].clear();
        }
      }
    }
  }
  bool completes_transfers(const Operation& op) const {
    const std::string_view name = name_of(op);
    if (is_kind(op.kind, SiteKind::mpi_one_sided_sync))
      return name == "MPI_Win_fence" || name == "MPI_Win_unlock" || name == "MPI_Win_unlock_all" ||
             name == "MPI_Win_flush" || name == "MPI_Win_flush_all" || name == "MPI_Win_complete";
    return (is_kind(op.kind, SiteKind::shmem_memory_sync) && name.find("quiet") != std::string_view::npos) ||
           (is_kind(op.kind, SiteKind::shmem_barrier) && name.find("barrier") != std::string_view::npos);
  }
  void link_completion(const std::vector<std::pair<const Operation*, std::uint64_t>>& outstanding,
                       const Operation& completion) {
    std::uint64_t bytes = 0;  // from the transfer on to the last
    for (const auto& [transfer, size] : outstanding) bytes += size;
    for (const auto& [transfer, size] : outstanding) {
      edge(transfer->begin, completion.end, EdgeKind::transfer_completion, bytes);
      bytes -= size;
    }
  }

  // Collectives over an active set (shmem_barrier, broadcast, reductions, collect, alltoall): the
  // collector records the set as the operation's match (format/shmem_active_set.hpp). The members
  // of a set call its collectives in the same order, so the n-th over the set of each member is one
  // instance; linked as the MPI collectives are: a broadcast from its root's arrival to the others'
  // ends, the rest from every arrival through a hub to every end. An operation without its set (a
  // trace of an older collector) and an instance not every member of which was traced stay unlinked.
  void link_shmem_sets() {
    for (const ShmemInstance& in : *shmem_instances_)
      if ((*shmem_calls_)[in.first].set != 0) link_shmem_instance(in);
  }

  // An instance of a barrier or collective (shmem_instances.hpp). On a part: counted by its first
  // member's part; the edges into its hub made by the hub's owner, which has every member's operation
  // (its begin a slot); those into its members' ends by their own parts, the hub or the broadcast's
  // root a slot there.
  void link_shmem_instance(const ShmemInstance& in) {
    const ShmemCall* m = shmem_calls_->data() + in.first;
    const auto own = [&](std::size_t i) { return !part_ || part_->own_rank(m[i].rank); };
    const auto op = [&](std::size_t i) {
      const Operation* found = operation(m[i].rank, m[i].thread, m[i].index);
      if (!found) throw std::logic_error("an OpenSHMEM collective's call is no operation of the graph");
      return found;
    };
    if (own(0)) {
      if (!in.linked)
        ++graph_.unlinked.shmem_collectives;
      else if (m[0].set == 0)
        ++graph_.linked.shmem_barriers;
      else
        ++graph_.linked.shmem_collectives;
    }
    if (!in.linked) return;
    const auto hops = static_cast<std::uint8_t>(std::bit_width(in.count - 1));
    const EdgeKind kind = m[0].set == 0 || is_kind(m[0].kind, SiteKind::shmem_barrier)
                              ? EdgeKind::shmem_barrier
                              : EdgeKind::collective;
    if (in.root != ShmemInstance::kNoRoot) {
      for (std::size_t i = 0; i < in.count; ++i)
        if (i != in.root && own(i)) edge(op(in.root)->begin, op(i)->end, kind, 0, hops);
      return;
    }
    const bool owner = !part_ || in.owner == part_->part;
    bool any_own = owner;
    for (std::size_t i = 0; i < in.count && !any_own; ++i) any_own = own(i);
    if (!any_own) return;
    const std::uint32_t h = shmem_hub(in);
    if (owner)
      for (std::size_t i = 0; i < in.count; ++i) edge(op(i)->begin, h, kind, 0, hops);
    for (std::size_t i = 0; i < in.count; ++i)
      if (own(i)) edge(h, op(i)->end, kind, 0, hops);
  }

  void link_openmp_tasks() {
    std::vector<LocationTasks> locations;
    for (std::size_t i = 0; i < built_.size(); ++i)
      locations.push_back({built_[i].rank, build_location_[i], &built_[i].tasks});
    const TaskLinkCounts counts = link_tasks(
        locations, graph_.time,
        [&](std::uint32_t source, std::uint32_t target, EdgeKind kind) { edge(source, target, kind); });
    graph_.linked.task_creations += counts.creations;
    graph_.linked.task_waits += counts.waits;
    graph_.unlinked.task_pieces += counts.unlinked_pieces;
  }

  void index_edges() {
    // Every link is made: the builder's locations (their operations, about 25 bytes an event) are not held
    // while the index and the order are made, where building the graph held the most.
    std::vector<LocationBuild>().swap(built_);
    barriers_.clear();
    locks_.clear();
    broadcast_roots_.clear();
    place_edges(graph_, linked_edges_, edge_targets_);
    linked_edges_ = {};
    edge_targets_ = {};
  }

  // An order in which every node comes after its dependencies: each location advances while its next
  // node's sources are placed; a hub is placed when its own sources are. A cycle (a matching gone
  // wrong, never a real run) is broken at the earliest blocked node, its unplaced edges dropped.
  void order_nodes() {
    const std::size_t n = graph_.time.size();
    std::vector<std::uint8_t> placed(n, 0);
    graph_.order.clear();
    std::vector<std::uint32_t> cursor(graph_.locations.size());
    for (std::size_t l = 0; l < cursor.size(); ++l) cursor[l] = graph_.locations[l].first;
    std::size_t remaining = 0;
    for (const GraphLocation& l : graph_.locations) remaining += l.end - l.first;
    std::vector<std::uint32_t> pending_hubs;
    const auto ready = [&](std::uint32_t node, auto& self) -> bool {
      for (const std::uint32_t e : graph_.in_edges(node)) {
        const std::uint32_t s = graph_.edges[e].source;
        if (placed[s] || s == node) continue;
        if (!graph_.is_hub(s) || !self(s, self)) return false;
        placed[s] = 1;
        graph_.order.push_back(s);
      }
      return true;
    };
    while (remaining > 0) {
      bool progress = false;
      for (std::size_t l = 0; l < cursor.size(); ++l) {
        const std::uint32_t end = graph_.locations[l].end;
        while (cursor[l] < end && ready(cursor[l], ready)) {
          placed[cursor[l]] = 1;
          graph_.order.push_back(cursor[l]++);
          --remaining;
          progress = true;
        }
      }
      if (progress) continue;
      std::size_t earliest = cursor.size();
      for (std::size_t l = 0; l < cursor.size(); ++l)
        if (cursor[l] < graph_.locations[l].end &&
            (earliest == cursor.size() || graph_.time[cursor[l]] < graph_.time[cursor[earliest]]))
          earliest = l;
      const std::uint32_t stuck = cursor[earliest];
      drop_unplaced_edges(stuck, placed);
    }
    for (std::uint32_t k = 0; k < n; ++k)
      if (!placed[k]) {  // a hub nothing waits for
        drop_unplaced_edges(k, placed);
        placed[k] = 1;
        graph_.order.push_back(k);
      }
    graph_.order.shrink_to_fit();
  }

  // Removes the edges into `node` (and into the hubs it waits for) whose sources are not placed.
  void drop_unplaced_edges(std::uint32_t node, const std::vector<std::uint8_t>& placed) {
    for (const std::uint32_t e : graph_.in_edges(node)) {
      GraphEdge& edge = graph_.edges[e];
      if (placed[edge.source]) continue;
      if (graph_.is_hub(edge.source)) {
        drop_unplaced_edges(edge.source, placed);
        continue;
      }
      edge.source = node;  // a self edge: ignored by every pass
      ++graph_.unlinked.cycles_broken;
    }
  }

  const TraceRun& traces_;
  const Communication* communication_ = nullptr;  // set by link
  // The run's OpenSHMEM calls and their instances, while the links are made (link).
  const std::vector<ShmemCall>* shmem_calls_ = nullptr;
  const std::vector<ShmemInstance>* shmem_instances_ = nullptr;
  PartLinks* part_ = nullptr;  // a part's links (link_part), else none
  ActivityGraph graph_;
  // The edges as linked, each with its target, until they are stored by it (index_edges). In chunks:
  // an array growing by doubling held its old and new copies at once, where building the graph held
  // the most (beside every location's operations and the matched communication).
  ChunkedVector<GraphEdge> linked_edges_;
  ChunkedVector<std::uint32_t> edge_targets_;
  std::vector<LocationBuild> built_;
  std::vector<RankRead> reads_;         // by rank, from its reading to its commit
  OrderedShare share_;                  // the ranks' reading, on this thread and a helper's
  NodeCounts counts_;                   // each location's points and operations, as read_rank reserves them
  std::optional<NodeCounter> counter_;  // counting beside another pass (counter()), until read
  std::vector<std::uint32_t> build_location_;
  struct Switch {
    std::int64_t rank;
    std::uint32_t node;
    bool on;
  };
  std::vector<Switch> switches_;  // recording switched, by the thread that did
  // By (rank, thread): a binary search per message side and collective member, the first of equals.
  std::vector<std::pair<std::pair<std::int64_t, std::uint32_t>, std::size_t>> location_of_build_;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::uint32_t>> region_enters_;
  std::map<std::tuple<std::int64_t, std::int64_t, std::uint32_t>, std::vector<const Operation*>> barriers_;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const Operation*>> locks_;
  // An OpenSHMEM broadcast's root PE, by (location, operation) of the builder.
  std::map<std::pair<std::size_t, std::size_t>, std::int64_t> broadcast_roots_;
  std::map<std::tuple<std::string, std::uint32_t, std::string, std::int64_t>, std::uint32_t> interval_ids_;
  std::unordered_map<std::string, std::uint32_t> operation_ids_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> frame_ids_;
};

ActivityGraphDraft::ActivityGraphDraft(const TraceRun& traces)
    : builder_(std::make_unique<GraphBuilder>(traces)) {
  builder_->read();
}
ActivityGraphDraft::ActivityGraphDraft(const TraceRun& traces, Unread)
    : builder_(std::make_unique<GraphBuilder>(traces)) {}
void ActivityGraphDraft::read() { builder_->read(); }
void ActivityGraphDraft::help_read() { builder_->help_read(); }
StreamObserver& ActivityGraphDraft::counter() { return builder_->counter(); }
ActivityGraphDraft::ActivityGraphDraft(ActivityGraphDraft&&) noexcept = default;
ActivityGraphDraft& ActivityGraphDraft::operator=(ActivityGraphDraft&&) noexcept = default;
ActivityGraphDraft::~ActivityGraphDraft() = default;

ActivityGraph ActivityGraphDraft::finish(const Communication& communication) && {
  ActivityGraph graph = builder_->link(communication);
  builder_.reset();  // what it held to link the nodes is not held beside the graph
  return graph;
}

const ActivityGraph& ActivityGraphDraft::unlinked() const { return builder_->unlinked(); }
void ActivityGraphDraft::renumber(std::vector<GraphInterval> intervals, std::vector<std::string> operations,
                                  std::vector<StackFrame> stacks, const RunNumbers& numbers) {
  builder_->renumber(std::move(intervals), std::move(operations), std::move(stacks), numbers);
}

void ActivityGraphDraft::set_run_extent(double start_ns, double end_ns, std::uint64_t events,
                                        std::size_t phases) {
  builder_->set_run_extent(start_ns, end_ns, events, phases);
}

bool ActivityGraphDraft::operation_nodes(std::int64_t rank, std::uint32_t thread, std::uint64_t index,
                                         OperationNodes& out) const {
  return builder_->operation_nodes(rank, thread, index, out);
}
ShmemCalls ActivityGraphDraft::shmem_calls(std::uint32_t first_node) const {
  return builder_->shmem_calls(first_node);
}
bool ActivityGraphDraft::switched_recording() const { return builder_->switched_recording(); }
void ActivityGraphDraft::make_phases_of_unswitched_ranks() {
  if (!builder_->switched_recording()) builder_->make_phases_of_run();
}
void ActivityGraphDraft::add_slots(const std::vector<double>& times) { builder_->add_slots(times); }
void ActivityGraphDraft::plan_collective_hubs(
    const Communication& communication, PartLinks& links,
    std::vector<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>>& counted) {
  builder_->plan_collective_hubs(communication, links, counted);
}
ActivityGraph ActivityGraphDraft::link_part(const Communication& communication, PartLinks& links) && {
  ActivityGraph graph = builder_->link_part(communication, links);
  builder_.reset();
  return graph;
}

ActivityGraph build_activity_graph(const TraceRun& traces, const Communication& communication) {
  return ActivityGraphDraft(traces).finish(communication);
}

std::uint32_t ActivityGraph::edge_target(std::uint32_t edge) const {
  // The last node with edges whose edges begin at or before `edge`.
  const auto r =
      std::upper_bound(in_edge_begin.begin(), in_edge_begin.end(), edge) - in_edge_begin.begin() - 1;
  return static_cast<std::uint32_t>(with_in_edges.select(static_cast<std::uint32_t>(r)));
}

void ActivityGraph::set_edges(const std::vector<GraphEdge>& unplaced, std::vector<std::uint32_t> targets) {
  place_edges(*this, unplaced, targets);
}

bool ActivityGraph::locations_independent() const {
  const GraphCounts& c = linked;
  const std::uint64_t links = c.messages + c.collectives + c.openmp_barriers + c.forks + c.lock_handovers +
                              c.shmem_barriers + c.shmem_waits + c.shmem_quiets + c.shmem_collectives +
                              c.task_creations + c.task_waits + c.window_completions +
                              c.window_lock_handovers + c.shmem_lock_handovers + c.window_epoch_links;
  return locations.size() > 1 && links == 0;
}

std::uint32_t ActivityGraph::location_of(std::uint32_t node) const {
  if (is_hub(node)) return kHub;
  // The last location that begins at or before the node (an empty one before it begins there too).
  const auto l = std::upper_bound(locations.begin(), locations.end(), node,
                                  [](std::uint32_t k, const GraphLocation& g) { return k < g.first; });
  return l == locations.begin() ? kHub : static_cast<std::uint32_t>(l - locations.begin()) - 1;
}

PhaseSpan phase_span(const GraphPhase& phase, const std::vector<double>& time) {
  PhaseSpan span{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const PhaseBounds& r : phase.ranks) {
    span.begin_ns = std::min(span.begin_ns, time[r.begin]);
    span.end_ns = std::max(span.end_ns, time[r.end]);
  }
  if (phase.ranks.empty()) span = {};
  return span;
}

}  // namespace parperf::analysis
