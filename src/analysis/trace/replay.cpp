#include "analysis/trace/replay.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>

#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/part_sweep.hpp"

namespace parperf::analysis {
namespace {

// Per stack frame: whether an interval called one of `names` is on it. Frames come after their
// parents, so one pass does.
std::vector<std::uint8_t> frames_inside(const ActivityGraph& g, const std::string& name) {
  std::vector<std::uint8_t> inside(g.stacks.size(), 0);
  for (std::size_t f = 1; f < g.stacks.size(); ++f)
    inside[f] = inside[g.stacks[f].parent] || g.intervals[g.stacks[f].interval].name == name;
  return inside;
}

// Per location, per instance of an interval (the n-th the location runs): its useful cost.
using InstanceCosts = std::vector<std::vector<double>>;
// The instances' sums and counts over every location of the run, in its order.
struct InstanceMeans {
  std::vector<double> sum, count;
};
InstanceMeans instance_means(const InstanceCosts& useful) {
  InstanceMeans m;
  for (const auto& instances : useful)
    for (std::size_t i = 0; i < instances.size(); ++i) {
      if (m.sum.size() <= i) m.sum.resize(i + 1, 0), m.count.resize(i + 1, 0);
      m.sum[i] += instances[i];
      m.count[i] += 1;
    }
  return m;
}
// What `means` gives for the graph's own locations' instances: the run's means (a part's locations
// are only some of the run's).
using MeansOf = std::function<InstanceMeans(const InstanceCosts&)>;

// Multiplies the useful costs inside each instance of `name` so that every instance takes the mean
// of the instances run together (the n-th of each location that runs it).
void balance_interval(const ActivityGraph& g, const std::string& name, std::vector<double>& cost,
                      const MeansOf& means) {
  const std::vector<std::uint8_t> inside = frames_inside(g, name);
  InstanceCosts useful(g.locations.size());
  std::vector<std::int32_t> instance(g.nodes(), -1);
  for (std::size_t l = 0; l < g.locations.size(); ++l) {
    bool was_inside = false;
    for (std::uint32_t k = g.locations[l].first; k < g.locations[l].end; ++k) {
      const bool in = inside[g.stack[k]] && g.segment[k] != SegmentKind::startup;
      if (in && !was_inside) useful[l].push_back(0);
      was_inside = in;
      if (!in) continue;
      instance[k] = static_cast<std::int32_t>(useful[l].size() - 1);
      if (g.segment[k] == SegmentKind::useful) useful[l].back() += cost[k];
    }
  }
  const InstanceMeans m = means(useful);
  for (std::size_t l = 0; l < g.locations.size(); ++l)
    for (std::uint32_t k = g.locations[l].first; k < g.locations[l].end; ++k) {
      if (instance[k] < 0 || g.segment[k] != SegmentKind::useful) continue;
      const auto i = static_cast<std::size_t>(instance[k]);
      const double own = useful[l][i];
      if (own > 0) cost[k] *= m.sum[i] / m.count[i] / own;
    }
}

// The run's means from a part's instances: every part's, gathered in part order (the run's
// location order), summed as the whole graph sums them.
InstanceMeans run_means(const InstanceCosts& mine, PartExchange& exchange) {
  PartBytes bytes;
  for (const std::vector<double>& instances : mine) bytes.put_all(instances);
  InstanceCosts all;
  for (const std::vector<std::uint8_t>& part : exchange.gather_all(bytes.bytes()))
    for (PartBytesReader in(part); !in.done();) all.push_back(in.take_all<double>());
  return instance_means(all);
}

// An operation's cost beyond its transfers on the fitted network: what is left of it when its
// messages arrive as the network model says (the measured times then replay as measured, but for
// a message faster than the model).
double cost_beyond_transfer(const ActivityGraph& g, const NetworkModel& fitted, std::uint32_t k,
                            ActivityGraph::EdgeRange in) {
  const std::uint32_t previous = g.previous(k);
  double ready = previous == kNoNode ? g.start_ns : g.time[previous];
  for (const std::uint32_t e : in)
    if (g.edges[e].source != k) ready = std::max(ready, g.time[g.edges[e].source]);
  double arrival = ready;
  for (const std::uint32_t e : in)
    if (g.edges[e].source != k && network_edge(g.edges[e].kind))
      arrival = std::max(arrival, g.time[g.edges[e].source] + fitted.transfer_ns(g.edges[e]));
  return std::max(0.0, g.time[k] - arrival);
}

// Per operation name (ActivityGraph::operations): whether its time, when the graph has no edge into
// it, is no transfer for an ideal network to take away: waiting for another PE or rank that the trace
// could not link (acquires_shmem_lock and waits_for_window: linked when the trace names their lock,
// window and group; waits_for_shmem_value: linked when a put was found; MPI_Win_fence: linked when it
// ends an epoch), or the file system's (does_file_io).
std::vector<std::uint8_t> kept_on_ideal_network(const ActivityGraph& g) {
  std::vector<std::uint8_t> kept(g.operations.size(), 0);
  for (std::size_t o = 0; o < g.operations.size(); ++o) {
    const std::string& name = g.operations[o];
    kept[o] = acquires_shmem_lock(name) || waits_for_shmem_value(name) || waits_for_window(name) ||
              name == "MPI_Win_fence" || does_file_io(name);
  }
  return kept;
}

// A node's own cost in the replay before balancing and scaling: as measured, less what the changed
// network or runtime takes over. `in`: its in_edges; `kept`: kept_on_ideal_network(g).
double network_cost(const ActivityGraph& g, const NetworkModel& fitted, const ReplayChanges& changes,
                    const std::vector<std::uint8_t>& kept, std::uint32_t k, ActivityGraph::EdgeRange in) {
  using Network = ReplayChanges::Network;
  if (g.is_hub(k)) return 0;
  const SegmentKind s = g.segment[k];
  if (s == SegmentKind::mpi || s == SegmentKind::shmem) {
    if (changes.network == Network::ideal)
      return kept[g.operation[k]] && in.empty() ? g.measured(k, in).cost : 0;
    if (changes.network != Network::measured) return cost_beyond_transfer(g, fitted, k, in);
  } else if (s == SegmentKind::openmp && changes.ideal_openmp) {
    return 0;
  }
  return g.measured(k, in).cost;
}

// Every node's own cost in the replay, as the walk asks for it: worked out node by node, or, when an
// interval is balanced (which needs every instance's sum first), all of them up front.
class ReplayCosts {
 public:
  ReplayCosts(const ActivityGraph& g, const NetworkModel& fitted, const ReplayChanges& changes,
              const MeansOf& means)
      : g_(g), fitted_(fitted), changes_(changes), kept_(kept_on_ideal_network(g)) {
    for (const auto& [name, factor] : changes.scale)
      if (factor > 0) scalings_.push_back({frames_inside(g, name), factor});
    if (changes.balance.empty()) return;
    all_.resize(g.nodes());
    for (std::uint32_t k = 0; k < g.nodes(); ++k)
      all_[k] = network_cost(g, fitted, changes, kept_, k, g.in_edges(k));
    for (const std::string& name : changes.balance) balance_interval(g, name, all_, means);
    for (std::uint32_t k = 0; k < g.nodes(); ++k) all_[k] = scaled(k, all_[k]);
  }

  // `in`: the node's in_edges.
  double operator()(std::uint32_t k, ActivityGraph::EdgeRange in) const {
    return all_.empty() ? scaled(k, network_cost(g_, fitted_, changes_, kept_, k, in)) : all_[k];
  }

 private:
  struct Scaling {
    std::vector<std::uint8_t> inside;  // per stack frame
    double factor;
  };
  double scaled(std::uint32_t k, double cost) const {
    if (g_.segment[k] != SegmentKind::useful) return cost;
    for (const Scaling& s : scalings_)
      if (s.inside[g_.stack[k]]) cost /= s.factor;
    return cost;
  }

  const ActivityGraph& g_;
  const NetworkModel& fitted_;
  const ReplayChanges& changes_;
  const std::vector<std::uint8_t> kept_;  // kept_on_ideal_network
  std::vector<Scaling> scalings_;
  std::vector<double> all_;
};

// The replay's walk, with what the critical path follows recorded or not, of the whole graph
// (NoPartSweep) or of a part (PartSweep: a ghost's time is its owner's).
template <bool kPath, class Sweep>
ReplayResult walk(const ActivityGraph& g, const NetworkModel& fitted, const ReplayChanges& changes,
                  Sweep& sweep, const MeansOf& means) {
  using Network = ReplayChanges::Network;
  ReplayResult r;
  const std::size_t n = g.nodes();
  const ReplayCosts costs(g, fitted, changes, means);
  const NetworkModel& network = changes.network == Network::model ? changes.model : fitted;
  const bool transfers = changes.network == Network::fitted || changes.network == Network::model;
  // A network edge into a location's node carries its transfer (a hub only gathers arrivals).
  const auto transfer = [&](std::uint32_t e, std::uint32_t target) {
    return transfers && network_edge(g.edges[e].kind) && !g.is_hub(target) ? network.transfer_ns(g.edges[e])
                                                                           : 0.0;
  };
  r.time.assign(n, 0);
  if constexpr (kPath) {
    r.cost.assign(n, 0);
    r.bound_by.assign(n, kBoundByPrevious);
    r.transfer.assign(g.edges.size(), 0);
  }
  r.start_ns = g.start_ns;
  r.end_ns = g.start_ns;
  for (const std::uint32_t k : g.order) {
    if constexpr (Sweep::kParts)
      if (sweep.is_ghost(k)) {
        r.time[k] = sweep.ghost_time(k);
        continue;
      }
    double ready = -std::numeric_limits<double>::infinity();
    std::int32_t bound = kBoundByPrevious;
    if (!g.is_hub(k)) {
      const std::uint32_t previous = g.previous(k);
      ready = previous == kNoNode ? g.start_ns : r.time[previous];
      bound = previous == kNoNode ? kBoundByStart : kBoundByPrevious;
    }
    const ActivityGraph::EdgeRange in = g.in_edges(k);
    for (const std::uint32_t e : in) {
      const std::uint32_t source = g.edges[e].source;
      if (source == k) continue;
      const double moved = transfer(e, k);
      if constexpr (kPath) r.transfer[e] = moved;
      const double arrival = r.time[source] + moved;
      if (arrival > ready) {
        ready = arrival;
        bound = static_cast<std::int32_t>(e);
      }
    }
    if (!(ready > -std::numeric_limits<double>::infinity())) ready = g.time[k];  // a hub nothing reached
    const double own = costs(k, in);
    r.time[k] = ready + own;
    sweep.computed(k, r.time[k]);
    if constexpr (kPath) {
      r.cost[k] = own;
      r.bound_by[k] = bound;
    }
    if (!g.is_hub(k) && ends_later(r.time[k], k, r.end_ns, r.last)) {
      r.end_ns = r.time[k];
      r.last = k;
    }
  }
  return r;
}

}  // namespace

bool interval_named(const ActivityGraph& graph, const std::string& name) {
  return std::any_of(graph.intervals.begin(), graph.intervals.end(),
                     [&](const GraphInterval& i) { return i.name == name; });
}

ReplayResult replay(const ActivityGraph& g, const NetworkModel& fitted, const ReplayChanges& changes,
                    ReplayDetail detail) {
  NoPartSweep whole;
  return detail == ReplayDetail::path ? walk<true>(g, fitted, changes, whole, instance_means)
                                      : walk<false>(g, fitted, changes, whole, instance_means);
}

ReplayResult replay_part(const GraphPart& part, const NetworkModel& fitted, const ReplayChanges& changes,
                         PartExchange& exchange, ReplayDetail detail) {
  const MeansOf means = [&](const InstanceCosts& mine) { return run_means(mine, exchange); };
  ReplayResult r;
  {
    PartSweep sweep(part, exchange);
    r = detail == ReplayDetail::path ? walk<true>(part.graph, fitted, changes, sweep, means)
                                     : walk<false>(part.graph, fitted, changes, sweep, means);
    sweep.finish();
  }
  const RunEnd run = run_end(part, exchange, r.end_ns, r.last);
  r.end_ns = run.end_ns;
  r.last = run.node;  // the run's number
  return r;
}

}  // namespace parperf::analysis
