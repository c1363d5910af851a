#include "analysis/trace/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "analysis/trace/busy_locations.hpp"
#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {
namespace {

// Rows by a dense id (an interval's, a location's): a lookup on the path's every node is a load, where
// a tree's was a search.
template <typename Row>
struct RowsById {
  std::vector<Row> rows;
  std::vector<std::uint8_t> present;
  explicit RowsById(std::size_t ids) : rows(ids), present(ids, 0) {}
  Row& operator[](std::size_t id) {
    present[id] = 1;
    return rows[id];
  }
};

// The rows most time first (equal times in the order given), each with its share of `length`.
template <typename Row>
std::vector<Row> ranked(std::vector<Row> out, double length) {
  for (Row& row : out) row.share = length > 0 ? row.time_ns / length : 0;
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.time_ns > b.time_ns; });
  return out;
}
template <typename Row>
std::vector<Row> ranked(const RowsById<Row>& by_id, double length) {
  std::vector<Row> out;
  for (std::size_t id = 0; id < by_id.rows.size(); ++id)
    if (by_id.present[id]) out.push_back(by_id.rows[id]);
  return ranked(std::move(out), length);
}
// By location and begin, those of a location that touch or overlap made one: in place (a path through
// every node of a run of tiny regions has hundreds of thousands).
void merge_pieces(std::vector<PathPiece>& pieces) {
  std::sort(pieces.begin(), pieces.end(), [](const PathPiece& a, const PathPiece& b) {
    return std::tie(a.rank, a.thread, a.begin_ns) < std::tie(b.rank, b.thread, b.begin_ns);
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const PathPiece& p = pieces[i];
    PathPiece* last = kept > 0 ? &pieces[kept - 1] : nullptr;
    if (last && last->rank == p.rank && last->thread == p.thread && p.begin_ns <= last->end_ns)
      last->end_ns = std::max(last->end_ns, p.end_ns);
    else
      pieces[kept++] = p;
  }
  pieces.resize(kept);
}

// The times a path is followed through: a replay's, or the graph's own (as measured).
struct PathTimes {
  const double* time;
  const double* cost;            // null: as measured (ActivityGraph::measured)
  const std::int32_t* bound_by;  // null: as measured
  const double* transfer;        // per edge; null: none apart from the operations' costs
  double start_ns = 0, end_ns = 0;
  std::uint32_t last = kNoNode;
  double length() const { return end_ns - start_ns; }
};

// Activities by id: the operations' names (0: an operation without one), then these.
enum Other : std::size_t { computation, openmp_idle, startup, paused, transfer, others_count };
const char* const kOtherNames[others_count] = {"computation", "OpenMP idle", "start-up", "recording paused",
                                               "message transfer"};

// What the walk back along the path adds up, in the order it walks. On a graph cut into parts
// (graph_part.hpp) the part holding the path's node walks it, and hands the sums that parts share on
// to the next when the path crosses to it (`put`, `take`): not the locations' times, which only the
// part holding a location adds to, nor the pieces, which are merged at the end whatever their order,
// nor the time while others work or wait, worked out once the walk is done.
struct PathSums {
  PathSums(const ActivityGraph& g, std::size_t run_locations)
      : intervals(g.intervals.size()),
        locations(run_locations),
        activities(g.operations.size() + others_count) {}
  RowsById<PathInterval> intervals;
  RowsById<PathLocation> locations;  // by the run's location number
  RowsById<PathActivity> activities;
  double computation_ns = 0, while_others_work_ns = 0, while_others_wait_ns = 0;
  std::uint64_t location_changes = 0;
  std::uint32_t current_location = 0;  // the run's number
  std::uint64_t useful_steps = 0;      // the useful pieces passed
  std::vector<PathPiece> pieces;

  template <class Row>
  static void put_rows(PartBytes& out, const RowsById<Row>& rows) {
    for (std::size_t i = 0; i < rows.rows.size(); ++i)
      out.put(rows.rows[i].time_ns), out.put(rows.present[i]);
  }
  template <class Row>
  static void take_rows(PartBytesReader& in, RowsById<Row>& rows) {
    for (std::size_t i = 0; i < rows.rows.size(); ++i) {
      rows.rows[i].time_ns = in.take<double>();
      rows.present[i] = in.take<std::uint8_t>();
    }
  }
  void put(PartBytes& out) const {
    put_rows(out, intervals);
    put_rows(out, activities);
    out.put(computation_ns), out.put(location_changes), out.put(current_location), out.put(useful_steps);
  }
  void take(PartBytesReader& in) {
    take_rows(in, intervals);
    take_rows(in, activities);
    computation_ns = in.take<double>();
    location_changes = in.take<std::uint64_t>();
    current_location = in.take<std::uint32_t>();
    useful_steps = in.take<std::uint64_t>();
  }
};

// Walks the path back from node k, adding up what it passes, until the path's start (returns
// kNoNode) or a node `here` says is not this graph's to walk (returns it). `location_base`: the run's
// number of the graph's first location. `useful(own, a, b)`: a computation of `own` on the path,
// measured from a to b.
template <class Useful, class Here>
std::uint32_t walk_back(const ActivityGraph& g, const PathTimes& r, PathPieces keep_pieces,
                        std::uint32_t location_base, PathSums& sums, std::uint32_t k, const Useful& useful,
                        const Here& here) {
  const std::size_t operations = g.operations.size();
  const auto activity = [&](std::size_t id, double t) { sums.activities[id].time_ns += t; };
  const auto other = [&](Other o, double t) { activity(operations + o, t); };
  std::vector<std::uint32_t> seen;
  // The walk stays on a location while it follows its nodes back, and looks it up after an edge.
  std::uint32_t l = g.location_of(k);
  while (k != kNoNode) {
    if (!here(k)) return k;
    const ActivityGraph::Step as_measured = g.measured(k);
    const double own = r.cost ? r.cost[k] : as_measured.cost;
    if (!g.is_hub(k) && own > 0) {
      if (location_base + l != sums.current_location) ++sums.location_changes;
      sums.current_location = location_base + l;
      sums.locations[location_base + l].time_ns += own;
      if (keep_pieces == PathPieces::kept && g.segment[k] != SegmentKind::startup && as_measured.cost > 0) {
        // Walked backwards: a piece that ends where the last one began extends it.
        const PathPiece piece{g.locations[l].rank, g.locations[l].thread, g.time[k] - as_measured.cost,
                              g.time[k]};
        PathPiece* last = sums.pieces.empty() ? nullptr : &sums.pieces.back();
        if (last && last->rank == piece.rank && last->thread == piece.thread &&
            piece.end_ns >= last->begin_ns && piece.begin_ns <= last->end_ns)
          last->begin_ns = std::min(last->begin_ns, piece.begin_ns);
        else
          sums.pieces.push_back(piece);
      }
      seen.clear();
      for (std::uint32_t f = g.stack[k]; f != 0; f = g.stacks[f].parent) {
        const std::uint32_t i = g.stacks[f].interval;
        if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
        seen.push_back(i);
        sums.intervals[i].time_ns += own;
      }
      switch (g.segment[k]) {
        case SegmentKind::useful: {
          other(computation, own);
          sums.computation_ns += own;
          // Measured times: the other locations' computation during this piece.
          const double b = g.time[k], a = b - as_measured.cost;
          if (b > a) useful(own, a, b);
          break;
        }
        case SegmentKind::idle:
          other(openmp_idle, own);
          break;
        case SegmentKind::startup:
          other(startup, own);
          break;
        case SegmentKind::paused:
          other(paused, own);
          break;
        default:
          activity(g.operation[k], own);
      }
    }
    const std::int32_t bound = r.bound_by ? r.bound_by[k] : as_measured.bound_by;
    if (bound == kBoundByStart) {
      const double before = r.time[k] - own - r.start_ns;
      if (before > 0) other(startup, before);
      return kNoNode;
    }
    if (bound == kBoundByPrevious) {
      k = g.previous(k);
      continue;
    }
    const GraphEdge& e = g.edges[static_cast<std::size_t>(bound)];
    if (r.transfer && r.transfer[static_cast<std::size_t>(bound)] > 0)
      other(transfer, r.transfer[static_cast<std::size_t>(bound)]);
    k = e.source;
    l = g.location_of(k);
  }
  return kNoNode;
}

// A computation on the path is split by the other locations' computation meanwhile: the share of
// the others working over it (`busy`: every location's computation from a to b, its own included).
void split_by_others(PathSums& sums, double own, double a, double b, double busy, std::size_t locations) {
  const double others = static_cast<double>(std::max<std::size_t>(locations, 2) - 1);
  const double overlapped = std::clamp((busy - (b - a)) / (b - a) / others, 0.0, 1.0);
  sums.while_others_work_ns += own * overlapped;
  sums.while_others_wait_ns += own * (1 - overlapped);
}

// Each stack frame's time over the graph's nodes (hubs and ghosts have none), added in node order to
// `by_frame` (the first half: the sums; the second: whether each has any).
void add_frame_costs(const ActivityGraph& g, std::vector<double>& by_frame) {
  const std::size_t frames = g.stacks.size();
  for (std::uint32_t n = 0; n < g.first_hub(); ++n) {
    const double cost = g.cost(n);
    if (cost <= 0) continue;
    by_frame[g.stack[n]] += cost;
    by_frame[frames + g.stack[n]] = 1;
  }
}

// The path from its sums: every interval with its time on every location too (from `by_frame`), the
// operations' activities by name, ranked; `g` gives the run's tables.
CriticalPath assemble(const ActivityGraph& g, PathSums& sums, const std::vector<double>& by_frame,
                      double length) {
  CriticalPath path;
  path.length_ns = length;
  path.computation_ns = sums.computation_ns;
  path.while_others_work_ns = sums.while_others_work_ns;
  path.while_others_wait_ns = sums.while_others_wait_ns;
  path.location_changes = sums.location_changes;
  path.pieces = std::move(sums.pieces);
  // Every interval, with its time off the path too: one that is long and not on it is hidden.
  // Summed by stack frame in node order, then each frame's sum into the intervals on it: the nodes
  // are many, the frames few.
  const std::size_t frames = g.stacks.size();
  std::vector<double> total(g.intervals.size(), 0);
  std::vector<std::uint8_t> has_time(g.intervals.size(), 0);
  std::vector<std::uint32_t> seen;
  for (std::uint32_t frame = 1; frame < frames; ++frame) {
    if (by_frame[frames + frame] == 0) continue;
    seen.clear();
    for (std::uint32_t f = frame; f != 0; f = g.stacks[f].parent) {
      const std::uint32_t i = g.stacks[f].interval;
      if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
      seen.push_back(i);
      total[i] += by_frame[frame];
      has_time[i] = 1;
    }
  }
  RowsById<PathInterval>& intervals = sums.intervals;
  for (std::uint32_t i = 0; i < g.intervals.size(); ++i) {
    if (!has_time[i]) continue;
    intervals[i].total_ns = total[i];
  }
  for (std::uint32_t i = 0; i < g.intervals.size(); ++i)
    if (intervals.present[i]) intervals.rows[i].interval = g.intervals[i];
  // By name (an operation may share one with another, or with an activity of the others), in the
  // names' order before ranking.
  const std::size_t operations = g.operations.size();
  std::map<std::string, PathActivity> by_name;
  for (std::size_t id = 0; id < sums.activities.rows.size(); ++id) {
    if (!sums.activities.present[id]) continue;
    const std::string name = id >= operations           ? kOtherNames[id - operations]
                             : g.operations[id].empty() ? "operation"
                                                        : g.operations[id];
    PathActivity& a = by_name[name];
    a.name = name;
    a.time_ns += sums.activities.rows[id].time_ns;
  }
  std::vector<PathActivity> named;
  for (auto& [name, a] : by_name) named.push_back(std::move(a));
  merge_pieces(path.pieces);
  path.intervals = ranked(intervals, path.length_ns);
  if (const std::size_t id = operations + startup;
      id < sums.activities.rows.size() && sums.activities.present[id])
    path.startup_ns = sums.activities.rows[id].time_ns;
  // Off the path: a share too small to gain from (under 1 %) of work too large to be noise. Not when
  // the path runs through start-up that is as large (a location's time before its first event, which
  // no traced dependency explains: a thread created by code the trace does not link): whatever ran
  // before that location began may be what held it back.
  constexpr double kOffPathShare = 0.01, kOffPathWork = 0.05;
  path.startup_unexplained = path.length_ns > 0 && path.startup_ns >= kOffPathWork * path.length_ns;
  for (PathInterval& i : path.intervals)
    i.off_path = path.length_ns > 0 && !path.startup_unexplained && i.share < kOffPathShare &&
                 i.total_ns >= kOffPathWork * path.length_ns;
  path.locations = ranked(sums.locations, path.length_ns);
  path.activities = ranked(std::move(named), path.length_ns);
  return path;
}

// The graph's own times (as measured), and the node that ends it (of its locations': not a hub's, nor
// on a part a ghost's, which are in the hubs' range).
PathTimes measured_times(const ActivityGraph& g) {
  PathTimes t{g.time.data(), nullptr, nullptr, nullptr, g.start_ns, g.start_ns, kNoNode};
  for (std::uint32_t k = 0; k < g.first_hub(); ++k)
    if (ends_later(g.time[k], k, t.end_ns, t.last)) {
      t.end_ns = g.time[k];
      t.last = k;
    }
  return t;
}

CriticalPath follow(const ActivityGraph& g, const PathTimes& r, PathPieces keep_pieces) {
  if (r.last == kNoNode) return {};
  PathSums sums(g, g.locations.size());
  BusyLocations busy(g);
  sums.current_location = g.location_of(r.last);
  walk_back(
      g, r, keep_pieces, 0, sums, r.last,
      [&](double own, double a, double b) {
        split_by_others(sums, own, a, b, busy.between(a, b), g.locations.size());
      },
      [](std::uint32_t) { return true; });
  for (std::uint32_t row = 0; row < g.locations.size(); ++row) {
    sums.locations.rows[row].rank = g.locations[row].rank;
    sums.locations.rows[row].thread = g.locations[row].thread;
  }
  std::vector<double> by_frame(2 * g.stacks.size(), 0);
  add_frame_costs(g, by_frame);
  return assemble(g, sums, by_frame, r.length());
}

}  // namespace

CriticalPath critical_path(const ActivityGraph& g, const ReplayResult& r, PathPieces pieces) {
  if (r.cost.size() != g.nodes() || r.bound_by.size() != g.nodes() || r.transfer.size() != g.edges.size())
    throw std::logic_error("a critical path needs a replay that kept its path (ReplayDetail::path)");
  return follow(
      g, {r.time.data(), r.cost.data(), r.bound_by.data(), r.transfer.data(), r.start_ns, r.end_ns, r.last},
      pieces);
}

// What a replay as measured gives (replay.hpp: the measured times back, bound by the same sources),
// read from the graph itself: no replay's times, costs and bounds (36 bytes an event) beside it.
CriticalPath critical_path(const ActivityGraph& g, PathPieces pieces) {
  return follow(g, measured_times(g), pieces);
}

CriticalPath critical_path(const GraphPart& part, PartExchange& exchange, PathPieces pieces) {
  const ActivityGraph& g = part.graph;
  PathTimes t = measured_times(g);
  const RunEnd end = run_end(part, exchange, t.end_ns, t.last);
  if (end.node == kNoNode) return {};
  t.end_ns = end.end_ns;
  t.last = part.local(end.node);
  const auto run_locations = static_cast<std::uint32_t>(sum_of_parts(exchange, g.locations.size()));

  // The walk: the part holding the path's node walks it back, the others wait for it to cross to
  // them, or for the end of the walk (the sums then reach every part).
  PathSums sums(g, run_locations);
  struct UsefulStep {
    std::uint64_t step;
    double own, a, b;
  };
  std::vector<UsefulStep> useful;
  const std::uint32_t tag = exchange.open();
  const auto is_mine = [&](std::uint32_t k) { return !part.is_ghost(k); };
  std::uint32_t k = end.part == part.part ? t.last : kNoNode;
  if (k != kNoNode) sums.current_location = part.first_location + g.location_of(k);
  for (;;) {
    if (k == kNoNode) {  // another part walks
      const std::vector<std::uint8_t> bytes = exchange.receive(tag);
      PartBytesReader in(bytes);
      const auto next = in.take<std::uint32_t>();
      sums.take(in);
      if (next == kNoNode) break;
      k = part.local(next);
      if (k == kNoNode || part.is_ghost(k))
        throw std::logic_error("a part was handed the path at a node it does not hold");
      continue;
    }
    k = walk_back(
        g, t, pieces, part.first_location, sums, k,
        [&](double own, double a, double b) {
          useful.push_back({sums.useful_steps++, own, a, b});
        },
        is_mine);
    PartBytes out;
    out.put(k == kNoNode ? kNoNode : part.global(k));
    sums.put(out);
    if (k == kNoNode) {  // the start: every other part learns the sums
      for (std::uint32_t p = 0; p < part.parts; ++p)
        if (p != part.part) exchange.send(p, tag, out.bytes());
      break;
    }
    exchange.send(part.ghost_owner[k - part.first_ghost], tag, out.bytes());
    k = kNoNode;
  }

  // The computations on the path, in its order, each split by every location's computation
  // meanwhile: summed over the locations in the run's order, part after part.
  PartBytes mine;
  for (const UsefulStep& s : useful) mine.put(s);
  std::vector<UsefulStep> all;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(mine.bytes()))
    for (PartBytesReader in(each); !in.done();) all.push_back(in.take<UsefulStep>());
  std::sort(all.begin(), all.end(), [](const UsefulStep& x, const UsefulStep& y) { return x.step < y.step; });
  const std::vector<double> busy =
      in_part_order(exchange, std::vector<double>(all.size(), 0), [&](std::vector<double>& sum) {
        BusyLocations locations(g);
        for (std::size_t i = 0; i < all.size(); ++i) sum[i] = locations.between(all[i].a, all[i].b, sum[i]);
      });
  for (std::size_t i = 0; i < all.size(); ++i)
    split_by_others(sums, all[i].own, all[i].a, all[i].b, busy[i], run_locations);

  // The locations' rows, each from the part that holds it; the pieces, every part's.
  PartBytes rows;
  for (std::uint32_t l = 0; l < g.locations.size(); ++l) {
    const std::uint32_t row = part.first_location + l;
    rows.put(sums.locations.rows[row].time_ns), rows.put(sums.locations.present[row]);
    rows.put(g.locations[l].rank), rows.put(g.locations[l].thread);
  }
  std::uint32_t row = 0;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(rows.bytes()))
    for (PartBytesReader in(each); !in.done(); ++row) {
      sums.locations.rows[row].time_ns = in.take<double>();
      sums.locations.present[row] = in.take<std::uint8_t>();
      sums.locations.rows[row].rank = in.take<std::int64_t>();
      sums.locations.rows[row].thread = in.take<std::uint32_t>();
    }
  PartBytes my_pieces;
  for (const PathPiece& p : sums.pieces) my_pieces.put(p);
  sums.pieces.clear();
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(my_pieces.bytes()))
    for (PartBytesReader in(each); !in.done();) sums.pieces.push_back(in.take<PathPiece>());

  // Each frame's time over the run's nodes, in their order: part after part.
  const std::vector<double> by_frame =
      in_part_order(exchange, std::vector<double>(2 * g.stacks.size(), 0),
                    [&](std::vector<double>& sum) { add_frame_costs(g, sum); });
  return assemble(g, sums, by_frame, t.end_ns - t.start_ns);
}

}  // namespace parperf::analysis
