#include "analysis/trace/critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace parperf::analysis {
namespace {

// How many locations compute at each moment: a step function, with its integral at each step.
class BusyLocations {
 public:
  explicit BusyLocations(const ActivityGraph& g) {
    // Counted first: the changes and steps are the largest things the critical path holds, and
    // vectors grown by doubling would hold up to twice as much (and the old and new at once).
    const auto computes = [&](std::uint32_t k) {
      return g.segment[k] == SegmentKind::useful && g.time[k] > g.time[k - 1];
    };
    // Changes, and at most as many steps as distinct times: a computation that follows another
    // directly (a run of useful segments) starts when that one ends, one step for both.
    std::size_t count = 0, times = 0;
    for (const GraphLocation& l : g.locations)
      for (std::uint32_t k = l.first + 1; k < l.end; ++k)
        if (computes(k)) {
          count += 2;
          times += k > l.first + 1 && computes(k - 1) ? 1 : 2;
        }
    steps_.reserve(times);
    if (in_order(g, computes)) {
      merge(g, computes);
      return;
    }
    std::vector<std::pair<double, int>> changes;
    changes.reserve(count);
    std::vector<std::size_t> runs = {0};  // each location's changes, in its nodes' order
    for (const GraphLocation& l : g.locations) {
      for (std::uint32_t k = l.first + 1; k < l.end; ++k)
        if (computes(k)) {
          changes.emplace_back(g.time[k - 1], 1);
          changes.emplace_back(g.time[k], -1);
        }
      runs.push_back(changes.size());
    }
    // Sorted: a location's changes are nearly always in order already, so sorting each location's
    // and merging them pairwise takes log(locations) passes where sorting them all took log(changes).
    for (std::size_t r = 0; r + 1 < runs.size(); ++r) {
      const auto begin = changes.begin() + static_cast<std::ptrdiff_t>(runs[r]);
      const auto end = changes.begin() + static_cast<std::ptrdiff_t>(runs[r + 1]);
      if (!std::is_sorted(begin, end)) std::sort(begin, end);
    }
    for (std::size_t width = 1; width + 1 < runs.size(); width *= 2)
      for (std::size_t r = 0; r + width + 1 < runs.size(); r += 2 * width) {
        const auto at = [&](std::size_t i) {
          return changes.begin() + static_cast<std::ptrdiff_t>(runs[std::min(i, runs.size() - 1)]);
        };
        std::inplace_merge(at(r), at(r + width), at(r + 2 * width));
      }
    for (const auto& [t, delta] : changes) step(t, delta);
  }
  // Location-seconds of computation in [a, b].
  double between(double a, double b) { return at(b) - at(a); }

 private:
  struct Step {
    double time;
    int busy;         // from this time on
    double integral;  // up to this time
  };
  // Whether every location's changes (its computations' starts, +1, and ends, -1) come in the order
  // of (time, change) already, without NaN times: nearly always.
  template <class Computes>
  static bool in_order(const ActivityGraph& g, const Computes& computes) {
    for (const GraphLocation& l : g.locations) {
      std::pair<double, int> last(-std::numeric_limits<double>::infinity(), -1);
      for (std::uint32_t k = l.first + 1; k < l.end; ++k) {
        if (!computes(k)) continue;
        const std::pair<double, int> start(g.time[k - 1], 1), end(g.time[k], -1);
        if (std::isnan(start.first) || std::isnan(end.first) || start < last || end < start) return false;
        last = end;
      }
    }
    return true;
  }
  // The locations' changes merged as they are made, through a heap of each location's next one:
  // the same steps as sorting all the changes (equal changes are alike), without holding them all
  // (16 bytes a computation, beside the steps, where the analysis holds the most).
  template <class Computes>
  void merge(const ActivityGraph& g, const Computes& computes) {
    struct Next {
      double time;
      int delta;
      std::uint32_t node, end;  // the computation's node, its location's end
    };
    const auto later = [](const Next& a, const Next& b) {
      return std::pair(a.time, a.delta) > std::pair(b.time, b.delta);
    };
    // The location's next computation from node k on: its start.
    const auto next_from = [&](std::uint32_t k, std::uint32_t end, Next& next) {
      for (; k < end; ++k)
        if (computes(k)) {
          next = {g.time[k - 1], 1, k, end};
          return true;
        }
      return false;
    };
    std::vector<Next> heap;
    heap.reserve(g.locations.size());
    for (const GraphLocation& l : g.locations)
      if (Next n{}; next_from(l.first + 1, l.end, n)) heap.push_back(n);
    std::make_heap(heap.begin(), heap.end(), later);
    // The earliest change is taken and its location's next put in its place, sifted down once (a pop
    // and a push would sift twice).
    while (!heap.empty()) {
      const Next n = heap.front();
      step(n.time, n.delta);
      Next replacement{};
      if (n.delta > 0)
        replacement = {g.time[n.node], -1, n.node, n.end};
      else if (!next_from(n.node + 1, n.end, replacement)) {
        std::pop_heap(heap.begin(), heap.end(), later);
        heap.pop_back();
        continue;
      }
      std::size_t i = 0;
      for (;;) {
        std::size_t child = 2 * i + 1;
        if (child >= heap.size()) break;
        if (child + 1 < heap.size() && later(heap[child], heap[child + 1])) ++child;  // the earlier
        if (!later(replacement, heap[child])) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = replacement;
    }
  }
  void step(double t, int delta) {
    if (!steps_.empty()) integral_ += busy_ * (t - steps_.back().time);
    busy_ += delta;
    // Of the steps at one time, `at` reads only the last: the one kept, with the same values.
    if (!steps_.empty() && steps_.back().time == t)
      steps_.back() = {t, busy_, integral_};
    else
      steps_.push_back({t, busy_, integral_});
  }
  // The integral up to t. The path asks about pieces near each other in time, one after the other:
  // the search gallops from the last answer (a few steps) rather than bisecting all the steps, each
  // probe a cache miss.
  double at(double t) {
    const std::size_t n = steps_.size();
    if (n == 0) return 0;
    const auto after_t = [&](std::size_t i) { return t < steps_[i].time; };
    std::size_t lo = 0, hi = n;  // the first step after t is in [lo, hi]
    std::size_t h = std::min(hint_, n - 1);
    if (after_t(h)) {
      hi = h;
      for (std::size_t stride = 1;; stride *= 2) {
        if (hi < stride) break;
        if (!after_t(hi - stride)) {
          lo = hi - stride + 1;
          break;
        }
        hi -= stride;
      }
    } else {
      lo = h + 1;
      for (std::size_t stride = 1;; stride *= 2) {
        const std::size_t probe = lo - 1 + stride;
        if (probe >= n) break;
        if (after_t(probe)) {
          hi = probe;
          break;
        }
        lo = probe + 1;
      }
    }
    const auto after = std::upper_bound(steps_.begin() + static_cast<std::ptrdiff_t>(lo),
                                        steps_.begin() + static_cast<std::ptrdiff_t>(hi), t,
                                        [](double time, const Step& s) { return time < s.time; });
    hint_ = static_cast<std::size_t>(after - steps_.begin());
    if (after == steps_.begin()) return 0;
    const Step& s = *(after - 1);
    return s.integral + s.busy * (t - s.time);
  }
  std::vector<Step> steps_;
  std::size_t hint_ = 0;  // where the last search ended
  int busy_ = 0;
  double integral_ = 0;
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
// By location and begin, those of a location that touch or overlap made one.
std::vector<PathPiece> merged(std::vector<PathPiece> pieces) {
  std::sort(pieces.begin(), pieces.end(), [](const PathPiece& a, const PathPiece& b) {
    return std::tie(a.rank, a.thread, a.begin_ns) < std::tie(b.rank, b.thread, b.begin_ns);
  });
  std::vector<PathPiece> out;
  for (const PathPiece& p : pieces) {
    if (!out.empty() && out.back().rank == p.rank && out.back().thread == p.thread &&
        p.begin_ns <= out.back().end_ns)
      out.back().end_ns = std::max(out.back().end_ns, p.end_ns);
    else
      out.push_back(p);
  }
  return out;
}

// The times a path is followed through: a replay's, or the graph's own (as measured).
struct PathTimes {
  const double* time;
  const double* cost;
  const std::int32_t* bound_by;
  const double* transfer;  // per edge; null: none apart from the operations' costs
  double start_ns = 0, end_ns = 0;
  std::uint32_t last = kNoNode;
  double length() const { return end_ns - start_ns; }
};

CriticalPath follow(const ActivityGraph& g, const PathTimes& r);

}  // namespace

CriticalPath critical_path(const ActivityGraph& g, const ReplayResult& r) {
  return follow(
      g, {r.time.data(), r.cost.data(), r.bound_by.data(), r.transfer.data(), r.start_ns, r.end_ns, r.last});
}

// What a replay as measured gives (replay.hpp: the measured times back, bound by the same sources),
// read from the graph itself: no copy of its times and costs (36 bytes an event, beside the graph,
// where the analysis holds the most).
CriticalPath critical_path(const ActivityGraph& g) {
  PathTimes t{g.time.data(), g.cost.data(), g.bound_by.data(), nullptr, g.start_ns, g.start_ns, kNoNode};
  for (const std::uint32_t k : g.order)
    if (!g.is_hub(k) && g.time[k] >= t.end_ns) {
      t.end_ns = g.time[k];
      t.last = k;
    }
  return follow(g, t);
}

namespace {

CriticalPath follow(const ActivityGraph& g, const PathTimes& r) {
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
  std::uint32_t current_location = g.location[k];
  while (k != kNoNode) {
    const double own = r.cost[k];
    if (!g.is_hub(k) && own > 0) {
      const std::uint32_t l = g.location[k];
      if (l != current_location) ++path.location_changes;
      current_location = l;
      locations[l].time_ns += own;
      if (g.segment[k] != SegmentKind::startup && g.cost[k] > 0) {
        // Walked backwards: a piece that ends where the last one began extends it.
        const PathPiece piece{g.locations[l].rank, g.locations[l].thread, g.time[k] - g.cost[k], g.time[k]};
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
          const double b = g.time[k], a = b - g.cost[k];
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
    const std::int32_t bound = r.bound_by[k];
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
  }
  // Every interval, with its time off the path too: one that is long and not on it is hidden.
  // Summed by stack frame in node order, then each frame's sum into the intervals on it: the nodes
  // are many, the frames few.
  std::vector<double> by_frame(g.stacks.size(), 0);
  std::vector<std::uint8_t> frame_has_time(g.stacks.size(), 0);
  for (std::uint32_t n = 0; n < g.nodes(); ++n) {
    if (g.is_hub(n) || g.cost[n] <= 0) continue;
    by_frame[g.stack[n]] += g.cost[n];
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
  for (std::uint32_t l = 0; l < g.locations.size(); ++l) {
    locations.rows[l].rank = g.locations[l].rank;
    locations.rows[l].thread = g.locations[l].thread;
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
  path.pieces = merged(std::move(path.pieces));
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
