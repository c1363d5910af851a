#include "analysis/trace/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace parperf::analysis {
namespace {

// Location-seconds of computation in a span of time, over every location: what the path's useful
// pieces are compared with (on the path while others work, or while they wait). A location's
// computations are the segments ending at its useful nodes. The path asks about pieces near each
// other in time, one after the other, walking back: each location keeps a cursor where its last
// answer was, with the computation before it, and moves from there, so the whole walk reads each
// location's nodes about once and holds nothing beside the graph (a step function of every
// location's changes, merged through a heap, was two thirds of the critical path's time and its
// largest allocation).
class BusyLocations {
 public:
  explicit BusyLocations(const ActivityGraph& g) : g_(g) {
    cursors_.reserve(g.locations.size());
    for (const GraphLocation& l : g.locations) {
      Cursor c{l.first + 1, l.first + 1, l.end, kNoNode, 0, {}};
      if (!in_order(c)) c.unordered = sorted_computations(c);
      cursors_.push_back(std::move(c));
    }
  }
  double between(double a, double b) {
    double sum = 0;
    for (Cursor& c : cursors_) {
      const double until_b = computation_until(c, b);
      sum += until_b - computation_until(c, a);  // last at a: where the walk back asks next
    }
    return sum;
  }

 private:
  // Computations of a location whose nodes are not in time order (a damaged clock: never a real run
  // after the repair), as sorted starts and ends with their running sums.
  struct Unordered {
    std::vector<double> starts, ends, start_sums, end_sums;  // sums[i]: of the first i
  };
  struct Cursor {
    std::uint32_t first, at, end;  // the location's first node that can close a computation, the
                                   // cursor, the location's end
    std::uint32_t previous;        // the last computation before `at`, or kNoNode
    double before = 0;             // the computation of the location's nodes before `at`
    Unordered unordered;           // used when not empty
  };

  bool computes(std::uint32_t k) const {
    return g_.segment[k] == SegmentKind::useful && g_.time[k] > g_.time[k - 1];
  }
  // Whether the location's computations follow each other in time, without NaN times: nearly always.
  bool in_order(const Cursor& c) const {
    double last_end = -std::numeric_limits<double>::infinity();
    for (std::uint32_t k = c.first; k < c.end; ++k) {
      if (std::isnan(g_.time[k]) || std::isnan(g_.time[k - 1])) return false;
      if (!computes(k)) continue;
      if (g_.time[k - 1] < last_end) return false;
      last_end = g_.time[k];
    }
    return true;
  }
  Unordered sorted_computations(const Cursor& c) const {
    Unordered u;
    for (std::uint32_t k = c.first; k < c.end; ++k)
      if (computes(k)) {
        u.starts.push_back(g_.time[k - 1]);
        u.ends.push_back(g_.time[k]);
      }
    const auto sort_and_sum = [](std::vector<double>& values, std::vector<double>& sums) {
      std::sort(values.begin(), values.end());
      sums.assign(values.size() + 1, 0);
      for (std::size_t i = 0; i < values.size(); ++i) sums[i + 1] = sums[i] + values[i];
    };
    sort_and_sum(u.starts, u.start_sums);
    sort_and_sum(u.ends, u.end_sums);
    return u;
  }
  // The location's computation before time t: whole computations that ended by t, and the part
  // before t of the one under way at t.
  double computation_until(Cursor& c, double t) const {
    if (!c.unordered.starts.empty()) {
      // Every start before t adds (t - start), every end before t takes (t - end) back.
      const Unordered& u = c.unordered;
      const auto below = [&](const std::vector<double>& v) {
        return static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), t) - v.begin());
      };
      const std::size_t s = below(u.starts), e = below(u.ends);
      return (static_cast<double>(s) * t - u.start_sums[s]) - (static_cast<double>(e) * t - u.end_sums[e]);
    }
    // Back over the computations that end after t, each found from the one before (the nodes between
    // are read once a pass, not at every question)...
    while (c.previous != kNoNode && g_.time[c.previous] > t) {
      c.before -= g_.time[c.previous] - g_.time[c.previous - 1];
      c.at = c.previous;
      c.previous = previous_computation(c, c.previous);
    }
    // ... and on over those that end by t, to the first that does not.
    for (; c.at < c.end; ++c.at)
      if (computes(c.at)) {
        if (g_.time[c.at] > t) break;
        c.before += g_.time[c.at] - g_.time[c.at - 1];
        c.previous = c.at;
      }
    // The one under way at t, if any: `at` stopped at a computation that ends after t.
    if (c.at < c.end && g_.time[c.at - 1] < t) return c.before + (t - g_.time[c.at - 1]);
    return c.before;
  }
  std::uint32_t previous_computation(const Cursor& c, std::uint32_t k) const {
    while (k > c.first)
      if (computes(--k)) return k;
    return kNoNode;
  }

  const ActivityGraph& g_;
  std::vector<Cursor> cursors_;
};

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

CriticalPath follow(const ActivityGraph& g, const PathTimes& r, PathPieces keep_pieces);

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
  PathTimes t{g.time.data(), nullptr, nullptr, nullptr, g.start_ns, g.start_ns, kNoNode};
  for (const std::uint32_t k : g.order)
    if (!g.is_hub(k) && g.time[k] >= t.end_ns) {
      t.end_ns = g.time[k];
      t.last = k;
    }
  return follow(g, t, pieces);
}

namespace {

CriticalPath follow(const ActivityGraph& g, const PathTimes& r, PathPieces keep_pieces) {
  CriticalPath path;
  if (r.last == kNoNode) return path;
  path.length_ns = r.length();
  BusyLocations busy(g);
  const double others = static_cast<double>(std::max<std::size_t>(g.locations.size(), 2) - 1);
  RowsById<PathInterval> intervals(g.intervals.size());
  RowsById<PathLocation> locations(g.locations.size());
  // Activities by id: the operations' names (0: an operation without one), then the others.
  const std::size_t operations = g.operations.size();
  enum Other : std::size_t { computation, openmp_idle, startup, paused, transfer, others_count };
  const char* const other_names[others_count] = {"computation", "OpenMP idle", "start-up", "recording paused",
                                                 "message transfer"};
  RowsById<PathActivity> activities(operations + others_count);
  const auto activity = [&](std::size_t id, double t) { activities[id].time_ns += t; };
  const auto other = [&](Other o, double t) { activity(operations + o, t); };
  std::vector<std::uint32_t> seen;
  std::uint32_t k = r.last;
  // The walk stays on a location while it follows its nodes back, and looks it up after an edge.
  std::uint32_t l = g.location_of(k);
  std::uint32_t current_location = l;
  while (k != kNoNode) {
    const ActivityGraph::Step as_measured = g.measured(k);
    const double own = r.cost ? r.cost[k] : as_measured.cost;
    if (!g.is_hub(k) && own > 0) {
      if (l != current_location) ++path.location_changes;
      current_location = l;
      locations[l].time_ns += own;
      if (keep_pieces == PathPieces::kept && g.segment[k] != SegmentKind::startup && as_measured.cost > 0) {
        // Walked backwards: a piece that ends where the last one began extends it.
        const PathPiece piece{g.locations[l].rank, g.locations[l].thread, g.time[k] - as_measured.cost,
                              g.time[k]};
        PathPiece* last = path.pieces.empty() ? nullptr : &path.pieces.back();
        if (last && last->rank == piece.rank && last->thread == piece.thread &&
            piece.end_ns >= last->begin_ns && piece.begin_ns <= last->end_ns)
          last->begin_ns = std::min(last->begin_ns, piece.begin_ns);
        else
          path.pieces.push_back(piece);
      }
      seen.clear();
      for (std::uint32_t f = g.stack[k]; f != 0; f = g.stacks[f].parent) {
        const std::uint32_t i = g.stacks[f].interval;
        if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
        seen.push_back(i);
        intervals[i].time_ns += own;
      }
      switch (g.segment[k]) {
        case SegmentKind::useful: {
          other(computation, own);
          path.computation_ns += own;
          // Measured times: the other locations' computation during this piece.
          const double b = g.time[k], a = b - as_measured.cost;
          if (b > a) {
            const double overlapped = std::clamp((busy.between(a, b) - (b - a)) / (b - a) / others, 0.0, 1.0);
            path.while_others_work_ns += own * overlapped;
            path.while_others_wait_ns += own * (1 - overlapped);
          }
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
      break;
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
  // Every interval, with its time off the path too: one that is long and not on it is hidden.
  // Summed by stack frame in node order, then each frame's sum into the intervals on it: the nodes
  // are many, the frames few.
  std::vector<double> by_frame(g.stacks.size(), 0);
  std::vector<std::uint8_t> frame_has_time(g.stacks.size(), 0);
  for (std::uint32_t n = 0; n < g.nodes(); ++n) {
    if (g.is_hub(n)) continue;
    const double cost = g.cost(n);
    if (cost <= 0) continue;
    by_frame[g.stack[n]] += cost;
    frame_has_time[g.stack[n]] = 1;
  }
  std::vector<double> total(g.intervals.size(), 0);
  std::vector<std::uint8_t> has_time(g.intervals.size(), 0);
  for (std::uint32_t frame = 1; frame < g.stacks.size(); ++frame) {
    if (!frame_has_time[frame]) continue;
    seen.clear();
    for (std::uint32_t f = frame; f != 0; f = g.stacks[f].parent) {
      const std::uint32_t i = g.stacks[f].interval;
      if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
      seen.push_back(i);
      total[i] += by_frame[frame];
      has_time[i] = 1;
    }
  }
  for (std::uint32_t i = 0; i < g.intervals.size(); ++i) {
    if (!has_time[i]) continue;
    intervals[i].total_ns = total[i];
  }
  for (std::uint32_t i = 0; i < g.intervals.size(); ++i)
    if (intervals.present[i]) intervals.rows[i].interval = g.intervals[i];
  for (std::uint32_t row = 0; row < g.locations.size(); ++row) {
    locations.rows[row].rank = g.locations[row].rank;
    locations.rows[row].thread = g.locations[row].thread;
  }
  // By name (an operation may share one with another, or with an activity of the others), in the
  // names' order before ranking.
  std::map<std::string, PathActivity> by_name;
  for (std::size_t id = 0; id < activities.rows.size(); ++id) {
    if (!activities.present[id]) continue;
    const std::string name = id >= operations           ? other_names[id - operations]
                             : g.operations[id].empty() ? "operation"
                                                        : g.operations[id];
    PathActivity& a = by_name[name];
    a.name = name;
    a.time_ns += activities.rows[id].time_ns;
  }
  std::vector<PathActivity> named;
  for (auto& [name, a] : by_name) named.push_back(std::move(a));
  merge_pieces(path.pieces);
  path.intervals = ranked(intervals, path.length_ns);
  // Off the path: a share too small to gain from (under 1 %) of work too large to be noise.
  constexpr double kOffPathShare = 0.01, kOffPathWork = 0.05;
  for (PathInterval& i : path.intervals)
    i.off_path = path.length_ns > 0 && i.share < kOffPathShare && i.total_ns >= kOffPathWork * path.length_ns;
  path.locations = ranked(locations, path.length_ns);
  path.activities = ranked(std::move(named), path.length_ns);
  return path;
}

}  // namespace

}  // namespace parperf::analysis
