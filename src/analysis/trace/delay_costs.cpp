#include "analysis/trace/delay_costs.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {
namespace {

// Long enough for any wait of a real run; a bound on the work of one wait in a damaged one.
constexpr int kMaxSteps = 1 << 16;

struct Cause {
  double delay_ns = 0;
  std::set<std::uint32_t> waiting;
  std::uint64_t waits = 0;
};

// A node as measured (ActivityGraph::measured), worked out once for each node that edges lead into
// (about one in six in a halo exchange; 16 bytes each): the walks pass many of them several times, and
// each time compared the times of its edges' sources, other ranks' nodes far away in memory; every
// member of a collective that waited at a hub asks which arrival came last, and a hub's edges are all
// its members' (a scan of them for each member made the delay costs quadratic in the members). A node
// without edges is bound by its previous one: worked out when asked, from two neighbouring times.
class MeasuredSteps {
 public:
  explicit MeasuredSteps(const ActivityGraph& g) : g_(g), with_edges_(g.with_in_edges.marked()) {
    g.with_in_edges.for_each_marked([&](std::uint64_t node, std::uint32_t r) {
      with_edges_[r] = g.measured(static_cast<std::uint32_t>(node));
    });
  }
  ActivityGraph::Step operator()(std::uint32_t node) const {
    if (const std::uint32_t r = g_.with_in_edges.rank(node); r != RankBitmap::kUnmarked)
      return with_edges_[r];
    return g_.measured(node, {});
  }

 private:
  const ActivityGraph& g_;
  std::vector<ActivityGraph::Step> with_edges_;  // by the node's rank among those with edges
};

// One wait's walk: from the node that waited, through the hubs to the arrival that came last (the
// late node), then back from it along what bound each node, charging the useful time it passes to
// (location, innermost interval) until the wait's time is used up. A graph cut into parts walks it
// where its nodes are, handing it on as bytes (put, take) where it crosses.
struct WaitWalk {
  enum Stage : std::uint8_t { finding_late, charging, done };
  struct Charge {
    std::uint32_t location;  // the run's number
    std::uint32_t interval;  // + 1; 0: outside every interval
    double ns;
  };
  std::uint32_t wait = 0;     // the node that waited (the run's number): the walks' order
  std::uint32_t waiting = 0;  // its location (the run's number)
  std::uint32_t node = 0;     // where the walk is (the run's number)
  Stage stage = finding_late;
  std::int32_t steps = 0;
  double previous_ns = 0;  // the waiting node's previous node's time
  double waited_ns = 0;    // the wait (0: none: the late node is the waiting location's, a hub, or not late)
  double remaining_ns = 0;
  std::vector<Charge> charges;  // in the walk's order

  void put(PartBytes& out) const {
    out.put(wait), out.put(waiting), out.put(node), out.put(stage), out.put(steps);
    out.put(previous_ns), out.put(waited_ns), out.put(remaining_ns);
    out.put_all(charges);
  }
  static WaitWalk take(PartBytesReader& in) {
    WaitWalk w;
    w.wait = in.take<std::uint32_t>(), w.waiting = in.take<std::uint32_t>(),
    w.node = in.take<std::uint32_t>();
    w.stage = in.take<Stage>(), w.steps = in.take<std::int32_t>();
    w.previous_ns = in.take<double>(), w.waited_ns = in.take<double>(), w.remaining_ns = in.take<double>();
    w.charges = in.take_all<Charge>();
    return w;
  }
};

// Where a graph's nodes are in the run: the whole graph (every node its own), or a part.
struct WholeGraph {
  bool here(std::uint32_t) const { return true; }
  std::uint32_t global(std::uint32_t k) const { return k; }
  std::uint32_t local(std::uint32_t node) const { return node; }
  std::uint32_t location_base() const { return 0; }
};
struct OnePart {
  const GraphPart& part;
  bool here(std::uint32_t k) const { return !part.is_ghost(k); }
  std::uint32_t global(std::uint32_t k) const { return part.global(k); }
  std::uint32_t local(std::uint32_t node) const { return part.local(node); }
  std::uint32_t location_base() const { return part.first_location; }
};

// Walks `w` on graph g from its node (which g holds) until it is done or reaches a node g does not
// hold (then w.node is that node).
template <class Where>
void advance(const ActivityGraph& g, const Where& where, const MeasuredSteps& steps, WaitWalk& w) {
  std::uint32_t j = where.local(w.node);
  while (w.stage != WaitWalk::done) {
    if (w.stage == WaitWalk::charging && (w.steps >= kMaxSteps || w.remaining_ns <= 0)) {
      w.stage = WaitWalk::done;
      break;
    }
    if (!where.here(j)) {
      w.node = where.global(j);
      return;
    }
    if (w.stage == WaitWalk::finding_late) {
      if (g.is_hub(j)) {
        const std::int32_t bound = steps(j).bound_by;
        if (bound < 0) {
          w.stage = WaitWalk::done;  // a hub nothing reached
          break;
        }
        j = g.edges[static_cast<std::size_t>(bound)].source;
        continue;
      }
      const std::uint32_t location = where.location_base() + g.location_of(j);
      const double remaining = g.time[j] - w.previous_ns;
      if (location == w.waiting || remaining <= 0) {
        w.stage = WaitWalk::done;
        break;
      }
      w.waited_ns = w.remaining_ns = remaining;
      w.stage = WaitWalk::charging;
    }
    ++w.steps;
    const ActivityGraph::Step walked = steps(j);
    if (!g.is_hub(j)) {
      const double charged = std::min(w.remaining_ns, walked.cost);
      if (g.segment[j] == SegmentKind::useful && charged > 0) {
        const std::uint32_t f = g.stack[j];
        w.charges.push_back(
            {where.location_base() + g.location_of(j), f == 0 ? 0u : g.stacks[f].interval + 1, charged});
      }
      w.remaining_ns -= charged;
    }
    const std::int32_t bound = walked.bound_by;
    if (bound == kBoundByStart) {
      w.stage = WaitWalk::done;
    } else if (bound == kBoundByPrevious) {
      j = g.previous(j);
      if (j == kNoNode) w.stage = WaitWalk::done;
    } else {
      j = g.edges[static_cast<std::size_t>(bound)].source;
    }
  }
  w.node = kNoNode;
}

// The walks of g's waits, in node order: each node bound by an edge whose source's location was
// not its own, with a node before it.
template <class Where, class F>
void for_each_wait(const ActivityGraph& g, const Where& where, const MeasuredSteps& steps, F f) {
  g.for_each_node_with_edges([&](std::uint32_t k) {  // (a node without edges is bound by its previous)
    if (g.is_hub(k)) return;
    const std::int32_t waited_for = steps(k).bound_by;
    if (waited_for < 0) return;
    const std::uint32_t previous = g.previous(k);
    if (previous == kNoNode) return;
    WaitWalk w;
    w.wait = where.global(k);
    w.waiting = where.location_base() + g.location_of(k);
    w.node = where.global(g.edges[static_cast<std::size_t>(waited_for)].source);
    w.previous_ns = g.time[previous];
    f(std::move(w));
  });
}

// What the walks charged, added up in the order of their waits and, within one, of the walk.
struct Charged {
  std::map<std::pair<std::uint32_t, std::uint32_t>, Cause> causes;  // (location, interval + 1)
  double waiting_ns = 0, charged_ns = 0;

  void add(const WaitWalk& w) {
    if (w.waited_ns <= 0) return;
    waiting_ns += w.waited_ns;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> took_part;  // the causes it charged: a few
    for (const WaitWalk::Charge& charge : w.charges) {
      const std::pair key(charge.location, charge.interval);
      Cause& c = causes[key];
      c.delay_ns += charge.ns;
      if (std::find(took_part.begin(), took_part.end(), key) == took_part.end()) {
        took_part.push_back(key);
        ++c.waits;
        c.waiting.insert(w.waiting);  // (the same location for every charge of the walk)
      }
      charged_ns += charge.ns;
    }
  }
  void put(PartBytes& out) const {
    out.put(waiting_ns), out.put(charged_ns), out.put(static_cast<std::uint64_t>(causes.size()));
    for (const auto& [key, c] : causes) {
      out.put(key.first), out.put(key.second), out.put(c.delay_ns), out.put(c.waits);
      out.put_all(std::vector<std::uint32_t>(c.waiting.begin(), c.waiting.end()));
    }
  }
  void take(PartBytesReader& in) {
    waiting_ns = in.take<double>(), charged_ns = in.take<double>();
    causes.clear();
    for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
      const auto location = in.take<std::uint32_t>();
      Cause& c = causes[{location, in.take<std::uint32_t>()}];
      c.delay_ns = in.take<double>(), c.waits = in.take<std::uint64_t>();
      for (const std::uint32_t l : in.take_all<std::uint32_t>()) c.waiting.insert(l);
    }
  }
};

// The result, its causes named from the run's locations (rank, thread) and intervals.
DelayCosts delay_result(const Charged& charged,
                        const std::vector<std::pair<std::int64_t, std::uint32_t>>& locations,
                        const std::vector<GraphInterval>& intervals) {
  DelayCosts result;
  result.waiting_ns = charged.waiting_ns;
  result.charged_ns = charged.charged_ns;
  for (const auto& [key, c] : charged.causes) {
    DelayCause d;
    d.location = key.first;
    d.rank = locations[key.first].first;
    d.thread = locations[key.first].second;
    if (key.second > 0) d.interval = intervals[key.second - 1];
    d.delay_ns = c.delay_ns;
    d.waiting = c.waiting.size();
    d.waits = c.waits;
    result.causes.push_back(std::move(d));
  }
  std::stable_sort(result.causes.begin(), result.causes.end(),
                   [](const DelayCause& a, const DelayCause& b) { return a.delay_ns > b.delay_ns; });
  return result;
}

}  // namespace

DelayCosts delay_costs(const ActivityGraph& g) {
  Charged charged;
  const MeasuredSteps steps(g);
  const WholeGraph whole;
  for_each_wait(g, whole, steps, [&](WaitWalk w) {
    advance(g, whole, steps, w);
    charged.add(w);
  });
  std::vector<std::pair<std::int64_t, std::uint32_t>> locations;
  for (const GraphLocation& l : g.locations) locations.emplace_back(l.rank, l.thread);
  return delay_result(charged, locations, g.intervals);
}

DelayCosts delay_costs(const GraphPart& part, PartExchange& exchange) {
  const ActivityGraph& g = part.graph;
  const OnePart where{part};
  const MeasuredSteps steps(g);
  // In rounds: each part walks the walks it holds as far as its nodes go, then the parts hand each
  // other the walks that crossed, and the finished ones home to the part of their wait; until none
  // is under way.
  std::vector<WaitWalk> walking, finished;
  for_each_wait(g, where, steps, [&](WaitWalk w) { walking.push_back(std::move(w)); });
  const auto owner = [&](std::uint32_t node) {  // of a node one of this part's walks reached
    const std::uint32_t k = part.local(node);
    return part.ghost_owner[k - part.first_ghost];
  };
  for (;;) {
    const std::uint32_t tag = exchange.open();
    std::vector<PartBytes> out(part.parts);
    for (WaitWalk& w : walking) {
      advance(g, where, steps, w);
      const std::uint32_t to = w.stage == WaitWalk::done ? part.part_of_node(w.wait) : owner(w.node);
      if (to == part.part)
        finished.push_back(std::move(w));
      else
        w.put(out[to]);
    }
    walking.clear();
    for (std::uint32_t p = 0; p < part.parts; ++p)
      if (p != part.part) exchange.send(p, tag, out[p].bytes());
    for (std::uint32_t p = 1; p < part.parts; ++p) {
      const std::vector<std::uint8_t> bytes = exchange.receive(tag);
      for (PartBytesReader in(bytes); !in.done();) {
        WaitWalk w = WaitWalk::take(in);
        (w.stage == WaitWalk::done ? finished : walking).push_back(std::move(w));
      }
    }
    if (sum_of_parts(exchange, walking.size()) == 0) break;
  }
  // Added up in the order of the waits: this part's in node order, after the parts before it.
  std::sort(finished.begin(), finished.end(),
            [](const WaitWalk& a, const WaitWalk& b) { return a.wait < b.wait; });
  PartBytes none;
  Charged().put(none);
  Charged charged;
  const std::vector<std::uint8_t> run =
      in_part_order(exchange, none.bytes(), [&](std::vector<std::uint8_t>& state) {
        PartBytesReader in(state);
        charged.take(in);
        for (const WaitWalk& w : finished) charged.add(w);
        PartBytes out;
        charged.put(out);
        state = out.bytes();
      });
  PartBytesReader in(run);
  charged.take(in);
  PartBytes mine;
  for (const GraphLocation& l : g.locations) mine.put(l.rank), mine.put(l.thread);
  std::vector<std::pair<std::int64_t, std::uint32_t>> locations;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(mine.bytes()))
    for (PartBytesReader from(each); !from.done();) {
      const auto rank = from.take<std::int64_t>();
      locations.emplace_back(rank, from.take<std::uint32_t>());
    }
  return delay_result(charged, locations, g.intervals);
}

}  // namespace parperf::analysis
