#include "analysis/trace/clock_repair.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/part_sweep.hpp"

namespace parperf::analysis {

double ClockRepair::repaired(std::uint32_t location, double t) const {
  if (location >= anchors.size() || anchors[location].empty()) return t;
  const LocationAnchors& a = anchors[location];
  const std::size_t after = a.after(t, 0, a.size());
  if (after == 0) return t;
  return std::max(t, a.repaired(after - 1) + kAmortization * (t - a.measured(after - 1)));
}

double RepairedTimes::operator()(double t) {
  const LocationAnchors& a = *anchors_;
  const auto before = [&](double time, std::size_t anchor) { return time < a.measured(anchor); };
  // The answer is the number of anchors measured at or before t, as upper_bound gives it. Galloped
  // to a range [lo, hi) that holds it, then searched there: anchors before lo are at or before t,
  // the one at hi (if any) after it.
  std::size_t lo = after_, hi = after_;
  if (after_ > 0 && before(t, after_ - 1)) {  // earlier than the last: back
    hi = after_ - 1;
    lo = hi;
    for (std::size_t step = 1; lo > 0; step *= 2) {
      const std::size_t probe = lo > step ? lo - step : 0;
      if (!before(t, probe)) {
        lo = probe;
        break;
      }
      hi = lo = probe;
    }
  } else {  // at or after it: on
    for (std::size_t step = 1; hi < a.size() && !before(t, hi); step *= 2) {
      lo = hi + 1;
      hi = std::min(a.size(), hi + step);
    }
  }
  after_ = a.after(t, lo, hi);
  if (after_ == 0) return t;
  return std::max(t, a.repaired(after_ - 1) + kAmortization * (t - a.measured(after_ - 1)));
}

double ClockRepair::repaired(std::int64_t rank, std::uint32_t thread, double t) const {
  const auto l = locations.find({rank, thread});
  return l == locations.end() ? t : repaired(l->second, t);
}

const LocationAnchors* ClockRepair::anchors_of(std::int64_t rank, std::uint32_t thread) const {
  const auto l = locations.find({rank, thread});
  return l == locations.end() || anchors[l->second].empty() ? nullptr : &anchors[l->second];
}

namespace {

// Moves every call of `c` as the repair moved its location, but those `elsewhere(side)` takes (another
// part's). A location's calls come in nearly the order of their times (the matching's): each
// location's anchors are walked, not searched, call by call.
template <class Elsewhere>
void move_calls(Communication& c, const ClockRepair& repair, const Elsewhere& elsewhere) {
  std::vector<RepairedTimes> times;
  times.reserve(repair.anchors.size());
  for (const auto& anchors : repair.anchors) times.emplace_back(anchors);
  const auto move = [&](CallSide& side) {
    if (elsewhere(side)) return;
    const auto l = repair.locations.find({side.rank, side.thread});
    if (l == repair.locations.end() || repair.anchors[l->second].empty()) return;
    side.start_ns = times[l->second](side.start_ns);
    side.end_ns = times[l->second](side.end_ns);
  };
  for (Message& m : c.messages) {
    move(m.send);
    move(m.receive);
  }
  for (CollectiveInstance& instance : c.collectives)
    for (CallSide& member : instance.members) move(member);
}

}  // namespace

void repair_communication(Communication& c, const ClockRepair& repair) {
  if (repair.moved == 0) return;
  move_calls(c, repair, [](const CallSide&) { return false; });
}

namespace {

// The figures of the whole graph, as they are (one process).
struct WholeGraph {
  bool any(bool v) const { return v; }
  std::uint64_t sum(std::uint64_t v) const { return v; }
  double max(double v) const { return v; }
};
// Those of every part, combined (a part of the graph: graph_part.hpp).
struct EveryPart {
  PartExchange& exchange;
  bool any(bool v) const { return any_part(exchange, v); }
  std::uint64_t sum(std::uint64_t v) const { return sum_of_parts(exchange, v); }
  double max(double v) const { return max_of_parts(exchange, v); }
};

// The repair of the whole graph (NoPartSweep, WholeGraph) or of a part (PartSweep, EveryPart: a
// ghost's repaired time is its owner's, the figures are the run's).
template <class Sweep, class Whole>
ClockRepair repair(ActivityGraph& g, Sweep& sweep, const Whole& whole) {
  ClockRepair repair;
  repair.anchors.assign(g.locations.size(), LocationAnchors(g.time));
  for (std::uint32_t l = 0; l < g.locations.size(); ++l)
    repair.locations.emplace(std::pair(g.locations[l].rank, g.locations[l].thread), l);
  // The dependencies as measured, counted before any time moves; and whether any time can move: only
  // after a dependency that ran backwards, a location's node before its previous one, or a hub whose
  // last arrival came after the time it was given (the repair sets it to that).
  bool backwards = false;
  for (std::uint32_t k = 0; k < g.first_hub(); ++k)
    if (const std::uint32_t previous = g.previous(k); previous != kNoNode && g.time[previous] > g.time[k])
      backwards = true;
  g.for_each_edge([&](std::uint32_t k, std::uint32_t e) {
    const std::uint32_t source = g.edges[e].source;
    if (source == k) return;
    if (g.is_hub(k)) {
      backwards |= g.time[source] > g.time[k];
      return;
    }
    ++repair.edges;
    if (g.time[source] > g.time[k]) ++repair.violations;  // (a hub's measured time is its last arrival)
  });
  // The times are repaired in place, in dependency order. A node's measured time is read before it is
  // overwritten; its previous node's, already overwritten, is its time unless it moved, and then
  // the last anchor of their location: no copy of the measured times (8 bytes a node) is held. When
  // nothing ran backwards, no node moves (each is at least its previous node, amortized, and its
  // sources, unmoved): only the hubs are set to their last arrivals.
  repair.edges = whole.sum(repair.edges);
  repair.violations = whole.sum(repair.violations);
  const bool only_hubs = repair.violations == 0 && !whole.any(backwards);
  std::vector<bool> moved(only_hubs ? 0 : g.nodes(), false);
  const auto repair_hub = [&](std::uint32_t k) {
    double t = -std::numeric_limits<double>::infinity();
    for (const std::uint32_t e : g.in_edges(k))
      if (g.edges[e].source != k) t = std::max(t, g.time[g.edges[e].source]);
    if (std::isfinite(t)) g.time[k] = t;
  };
  // The order comes as runs of consecutive nodes, mostly of one location: a node's location is found
  // once a run and followed along it, not searched for each moved node.
  g.order.for_each_run([&](std::uint32_t first, std::uint32_t count) {
    std::uint32_t location = g.is_hub(first) ? kHub : g.location_of(first);
    for (std::uint32_t k = first; k < first + count; ++k) {
      if constexpr (Sweep::kParts)
        if (sweep.is_ghost(k)) {  // with only hubs to set, the other nodes' times stay as measured
          if (!only_hubs || sweep.is_run_hub(k)) g.time[k] = sweep.ghost_time(k);
          continue;
        }
      if (g.is_hub(k)) {
        repair_hub(k);
        sweep.computed(k, g.time[k]);
        continue;
      }
      if (only_hubs) continue;
      while (k >= g.locations[location].end) ++location;  // into the next location (past empty ones)
      const double measured = g.time[k];
      double t = measured;
      LocationAnchors& anchors = repair.anchors[location];
      if (const std::uint32_t previous = g.previous(k); previous != kNoNode) {
        const double measured_previous = moved[previous] ? anchors.last_measured() : g.time[previous];
        t = std::max(t, g.time[previous] + kAmortization * (measured - measured_previous));
      }
      for (const std::uint32_t e : g.in_edges(k))
        if (g.edges[e].source != k) t = std::max(t, g.time[g.edges[e].source]);
      if (t > measured) {
        ++repair.moved;
        moved[k] = true;
        repair.largest_shift_ns = std::max(repair.largest_shift_ns, t - measured);
        anchors.add(k, measured);
      }
      g.time[k] = t;
      sweep.computed(k, t);
    }
  });
  if constexpr (Sweep::kParts) sweep.finish();
  repair.moved = whole.sum(repair.moved);
  repair.largest_shift_ns = whole.max(repair.largest_shift_ns);
  for (LocationAnchors& a : repair.anchors) a.finish();
  g.for_each_edge([&](std::uint32_t k, std::uint32_t e) {
    if (g.edges[e].source != k && g.time[g.edges[e].source] > g.time[k]) ++repair.remaining;
  });
  repair.remaining = whole.sum(repair.remaining);
  double end = g.start_ns;
  for (const GraphLocation& l : g.locations)
    if (l.end > l.first) end = std::max(end, g.time[l.end - 1]);
  g.end_ns = whole.max(end);
  return repair;
}

}  // namespace

ClockRepair repair_clock_condition(ActivityGraph& g) {
  NoPartSweep whole_graph;
  return repair(g, whole_graph, WholeGraph{});
}

ClockRepair repair_clock_condition(GraphPart& part, PartExchange& exchange) {
  PartSweep sweep(part, exchange);
  return repair(part.graph, sweep, EveryPart{exchange});
}

void repair_communication(Communication& c, const ClockRepair& repair, const TraceRun& traces,
                          const RankPartition& ranks, PartExchange& exchange) {
  if (repair.moved == 0) return;  // the run's count: the same on every part
  const std::uint32_t me = exchange.part();
  std::vector<PartBytes> asks(exchange.parts());
  std::vector<std::vector<CallSide*>> asked(exchange.parts());
  for (PartBytes& a : asks) a.put(me);
  move_calls(c, repair, [&](CallSide& side) {
    const std::uint32_t owner = part_of_rank(traces, ranks, side.rank);
    if (owner == me) return false;
    if (owner >= exchange.parts()) throw std::logic_error("a call of a rank with no trace");
    asks[owner].put(side.rank);
    asks[owner].put(side.thread);
    asks[owner].put(side.start_ns);
    asks[owner].put(side.end_ns);
    asked[owner].push_back(&side);
    return true;
  });
  try {
    std::vector<PartBytes> answers(exchange.parts());
    for (PartBytes& a : answers) a.put(me);
    for (const std::vector<std::uint8_t>& bytes : exchange_with_every_part(exchange, asks)) {
      PartBytesReader in(bytes);
      const auto from = in.take<std::uint32_t>();
      if (from >= exchange.parts()) throw std::logic_error("asked by no part");
      while (!in.done()) {
        const auto rank = in.take<std::int32_t>();
        const auto thread = in.take<std::uint32_t>();
        const auto start = in.take<double>();
        const auto end = in.take<double>();
        answers[from].put(repair.repaired(rank, thread, start));
        answers[from].put(repair.repaired(rank, thread, end));
      }
    }
    for (const std::vector<std::uint8_t>& bytes : exchange_with_every_part(exchange, answers)) {
      PartBytesReader in(bytes);
      const auto from = in.take<std::uint32_t>();
      if (from >= exchange.parts()) throw std::logic_error("answered by no part");
      for (CallSide* side : asked[from]) {
        side->start_ns = in.take<double>();
        side->end_ns = in.take<double>();
      }
      if (!in.done()) throw std::logic_error("more answers than asked");
    }
  } catch (const std::logic_error&) {
    throw std::runtime_error("parallel trace analysis: a part re-timed the calls of its ranks wrongly");
  }
}

}  // namespace parperf::analysis
