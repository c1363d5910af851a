#include "analysis/trace/rank_reading.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "analysis/trace/nearly_sorted.hpp"
#include "analysis/trace/site_index.hpp"
#include "analysis/trace/timeline_merge.hpp"

namespace parperf::analysis::graph_points {
namespace {

bool starts_program(std::string_view name) {
  return name == "MPI_Init" || name == "MPI_Init_thread" || name == "shmem_init" ||
         name == "shmem_init_thread" || name == "start_pes";
}
bool ends_program(std::string_view name) { return name == "MPI_Finalize" || name == "shmem_finalize"; }

GraphInterval interval_of(const RankTrace& rank, const format::Site& site) {
  const SiteLocation where =
      rank.sites ? rank.sites->location(rank.rank, site) : SiteLocation{site.file, site.line, 0, {}, {}};
  return {where.name_of(site), site.kind, std::filesystem::path(where.file).filename().string(), where.line};
}

// Puts a location's points in time order (stable: equal times keep their order) and keeps those
// inside [start, end], renumbering its operations' points. The points come nearly always in order
// and the window cuts a prefix and a suffix: then the points are only shifted, in place.
void cut_to_window(LocationBuild& l, double start, double end) {
  std::vector<Point>& points = l.points;
  bool in_order = true;
  for (std::size_t p = 0; p < points.size() && in_order; ++p)
    in_order = !std::isnan(points[p].time) && (p == 0 || !(points[p].time < points[p - 1].time));
  const auto inside = [&](const Point& point) { return point.time >= start && point.time <= end; };
  if (in_order) {
    const auto first = std::find_if(points.begin(), points.end(), inside);
    const auto last = std::find_if_not(first, points.end(), inside);
    if (std::none_of(last, points.end(), inside)) {
      const auto lo = static_cast<std::uint32_t>(first - points.begin());
      const auto hi = static_cast<std::uint32_t>(last - points.begin());
      points.erase(last, points.end());
      points.erase(points.begin(), first);
      points.shrink_to_fit();  // held until the graph is built: not the slack of its growth
      for (Operation& op : l.operations)
        for (std::uint32_t* p : op.points())
          if (*p != kNoNode) *p = *p >= lo && *p < hi ? *p - lo : kNoNode;
      l.tasks.remap([&](std::uint32_t p) { return p >= lo && p < hi ? p - lo : kNoNode; });
      return;
    }
  }
  std::vector<std::uint32_t> kept(points.size(), kNoNode);
  std::vector<std::uint32_t> by_time(points.size());
  for (std::uint32_t p = 0; p < points.size(); ++p) by_time[p] = p;
  if (!in_order) {
    const auto earlier = [&](std::uint32_t a, std::uint32_t b) { return points[a].time < points[b].time; };
    // A time that is not a number is ordered by no comparison: the general sort, as it always was.
    if (std::any_of(points.begin(), points.end(), [](const Point& p) { return std::isnan(p.time); }))
      std::stable_sort(by_time.begin(), by_time.end(), earlier);
    else
      stable_sort_nearly_sorted(by_time, earlier);
  }
  std::vector<Point> sorted;
  sorted.reserve(points.size());
  for (const std::uint32_t p : by_time)
    if (inside(points[p])) {
      kept[p] = static_cast<std::uint32_t>(sorted.size());
      sorted.push_back(points[p]);
    }
  points = std::move(sorted);
  for (Operation& op : l.operations)
    for (std::uint32_t* p : op.points())
      if (*p != kNoNode) *p = kept[*p];
  l.tasks.remap([&](std::uint32_t p) { return kept[p]; });
}

// An operation is traced when it ends, at its start; when events were traced during it (tasks run
// inside a barrier, the body of a critical section), its start was stored as the last of those,
// t (the trace's times only go forward), and start + duration overshoots the next event. It ended
// between t and the next event: after t by its waiting, which follows the work run inside it (a
// barrier runs tasks, then waits). Its begin is then end − duration, or just before an interval
// begun within that uncertainty (the work it ran began right after it did), so that the events
// traced inside it stay inside it.
void end_operation_by(LocationBuild& l, double next) {
  if (l.operations.empty()) return;
  Operation& op = l.operations.back();
  const std::uint32_t last = op.end;  // a lock's release
  if (last == kNoNode || l.points[last].time <= next) return;
  const double stored = l.points[op.begin].time;
  const double duration = l.points[last].time - stored;
  const double end = std::min(next, stored + l.last_waited_ns);
  double begin = end - duration;
  // The intervals traced inside it are those that ended before it was traced; it began before the
  // first of them.
  int open = 0;
  for (std::uint32_t p = op.begin; p-- > 0 && l.points[p].time >= stored - duration;) {
    if (l.points[p].role == Role::leave) ++open;
    if (l.points[p].role != Role::enter) continue;
    if (open == 0) break;  // an interval still open when it ended: it began inside that one
    --open;
    begin = std::min(begin, l.points[p].time - 1e-3);
  }
  if (op.inner != kNoNode) {
    if (is_openmp_lock(op.kind))
      l.points[op.acquired()].time = begin + (l.points[op.acquired()].time - stored);
    else
      l.points[op.arrived()].time = std::max(begin, end - l.last_waited_ns);
  }
  l.points[op.begin].time = begin;
  l.points[last].time = end;
}

// `name` is the site's interned operation name, set when first needed. Whether the event is one of
// the graph's operations.
bool add_operation(RankRead& read, LocationBuild& l, const format::Site& s, std::uint32_t& name,
                   const format::TraceEvent& e, double t, double ns_per_tick, const RankClock& clock,
                   double local) {
  const std::uint32_t kind = s.kind;
  SegmentKind segment;
  if (format::is_mpi_kind(kind))
    segment = SegmentKind::mpi;
  else if (format::is_shmem_kind(kind))
    segment = SegmentKind::shmem;
  else if (is_openmp_synchronization(kind))
    segment = SegmentKind::openmp;
  else
    return false;  // atomics, flushes, task creation: part of the work around them
  const auto at = [&](std::uint64_t ticks) {
    return clock.apply(local + static_cast<double>(ticks) * ns_per_tick);
  };
  if (name == kNoNode) name = read.intern_operation(s.name);
  Operation op{.kind = static_cast<std::uint16_t>(kind), .name = static_cast<OperationName>(name)};
  const double waited_ns = static_cast<double>(e.wait + e.sync) * ns_per_tick;
  op.begin = static_cast<std::uint32_t>(l.points.size());
  l.points.push_back({t, Role::op_begin, segment, false, name});
  if (is_openmp_lock(kind)) {
    // Acquire to release: waiting until acquired, then the program's work inside.
    op.inner = static_cast<std::uint32_t>(l.points.size());  // acquired
    l.points.push_back({at(e.wait), Role::acquired});
    op.end = static_cast<std::uint32_t>(l.points.size());  // released
    l.points.push_back({at(std::max(e.duration, e.wait)), Role::release});
  } else {
    if (is_openmp_barrier(kind)) {
      // A barrier completes when every member arrived and every task is done: a thread that ran
      // tasks inside it arrived when it began to wait.
      op.inner = static_cast<std::uint32_t>(l.points.size());  // arrived
      l.points.push_back({std::max(t, at(e.duration) - waited_ns), Role::arrived});
    }
    op.end = static_cast<std::uint32_t>(l.points.size());
    l.points.push_back({at(e.duration), Role::op_end});
  }
  if (is_kind(kind, SiteKind::shmem_broadcast))
    read.broadcast_roots.push_back({{read.locations.size() - 1, l.operations.size()}, e.partner});
  l.operations.push_back(op);
  if (keeps_match(kind)) l.matches.push_back(e.match);
  l.last_waited_ns = waited_ns;
  return true;
}

// A task's creation (a point of its own: what the task's first piece waits for), and the taskwaits,
// taskgroups and barriers that end the waiting for tasks.
// `operation`: whether the event was made one of the graph's operations.
void read_task_operation(LocationBuild& l, const format::Site& s, const format::TraceEvent& e, bool operation,
                         double t) {
  if (is_kind(s.kind, SiteKind::omp_task_create)) {
    if (e.match == 0) return;  // a trace before 2.2: no id
    l.tasks.created(static_cast<std::uint64_t>(e.match), static_cast<std::uint32_t>(l.points.size()));
    l.points.push_back({t, Role::created});
    return;
  }
  if (!operation) return;
  const Operation& op = l.operations.back();
  if (is_kind(s.kind, SiteKind::omp_taskwait))
    l.tasks.synced(TaskSyncKind::taskwait, op.end);
  else if (is_kind(s.kind, SiteKind::omp_taskgroup))
    l.tasks.synced(TaskSyncKind::taskgroup, op.end);
  else if (is_openmp_barrier(s.kind))
    l.tasks.synced(TaskSyncKind::barrier, op.end);
}

}  // namespace

void read_rank(const RankTrace& rank, const RankClock& clock, std::span<const LocationSize> counted,
               RankRead& out) {
  const SiteIndex sites(rank.profile);
  // Per site (by its slot), worked out when first met: interning gives ids in first-met order.
  std::vector<std::uint32_t> interval_of_slot(sites.size(), kNoNode);
  std::vector<std::uint32_t> operation_of(sites.size(), kNoNode);
  const double ns_per_tick = analysis::ns_per_tick(*rank.trace);
  double window_start = -std::numeric_limits<double>::infinity();
  double window_end = std::numeric_limits<double>::infinity();
  for (auto& stream : thread_streams(rank.trace)) {
    // Reserved as counted (count_nodes): a rank's points growing by doubling held up to three
    // times them, beside the matched communication.
    const LocationSize size =
        out.locations.size() < counted.size() ? counted[out.locations.size()] : LocationSize{};
    LocationBuild& l = out.locations.emplace_back();
    l.points.reserve(size.points);
    l.operations.reserve(size.operations);
    l.matches.reserve(size.matches);
    l.rank = rank.rank;
    l.thread = stream->thread();
    double local = 0;
    format::TraceEvent e;
    std::uint64_t index = 0;
    l.operation_events.assign(size.events);  // as counted: the same streams read again
    for (; stream->next(local, e); ++index) {
      if (index == kMostThreadEvents)
        throw std::length_error(fmt::format(
            "{}: thread {} of rank {} has more than {} events, more than the activity graph can number",
            rank.file, l.thread, rank.rank, kMostThreadEvents));
      ++out.events;
      const double t = clock.apply(local);
      end_operation_by(l, t);
      const std::uint32_t slot = sites.slot(e.site);
      const format::Site* s = slot == SiteIndex::kNone ? nullptr : &rank.profile->sites[slot];
      if (e.kind == format::TraceEventKind::enter) {
        if (!s) continue;
        if (interval_of_slot[slot] == kNoNode)
          interval_of_slot[slot] = out.intern_interval(interval_of(rank, *s));
        l.tasks.entered(is_kind(s->kind, SiteKind::omp_task), static_cast<std::uint32_t>(l.points.size()));
        l.points.push_back({t, Role::enter, SegmentKind::useful, is_kind(s->kind, SiteKind::omp_parallel),
                            interval_of_slot[slot]});
      } else if (e.kind == format::TraceEventKind::leave) {
        if (s) {
          l.tasks.left(static_cast<std::uint32_t>(l.points.size()));
          l.points.push_back({t, Role::leave});
        }
      } else if (e.kind == format::TraceEventKind::task) {
        l.tasks.named(static_cast<std::uint64_t>(e.value));
      } else if (e.kind == format::TraceEventKind::recording_off) {
        l.points.push_back({t, Role::paused});
      } else if (e.kind == format::TraceEventKind::recording_on) {
        l.points.push_back({t, Role::resumed});
      } else if (e.kind == format::TraceEventKind::operation && s) {
        const bool added = add_operation(out, l, *s, operation_of[slot], e, t, ns_per_tick, clock, local);
        if (added) l.operation_events.mark(index);  // (past the count grows it)
        read_task_operation(l, *s, e, added, t);
        if (starts_program(s->name))
          window_start =
              std::max(window_start, clock.apply(local + static_cast<double>(e.duration) * ns_per_tick));
        if (ends_program(s->name)) window_end = std::min(window_end, t);
      }
    }
    l.operation_events.index();
  }
  for (LocationBuild& l : out.locations) cut_to_window(l, window_start, window_end);
}

}  // namespace parperf::analysis::graph_points
