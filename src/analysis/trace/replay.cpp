#include "analysis/trace/replay.hpp"

#include <algorithm>
#include <limits>
#include <map>

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

// Multiplies the useful costs inside each instance of `name` so that every instance takes the mean
// of the instances run together (the n-th of each location that runs it).
void balance_interval(const ActivityGraph& g, const std::string& name, std::vector<double>& cost) {
  const std::vector<std::uint8_t> inside = frames_inside(g, name);
  std::vector<std::vector<double>> useful(g.locations.size());  // per location, per instance
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
  std::vector<double> sum, count;
  for (const auto& instances : useful)
    for (std::size_t i = 0; i < instances.size(); ++i) {
      if (sum.size() <= i) sum.resize(i + 1, 0), count.resize(i + 1, 0);
      sum[i] += instances[i];
      count[i] += 1;
    }
  for (std::size_t l = 0; l < g.locations.size(); ++l)
    for (std::uint32_t k = g.locations[l].first; k < g.locations[l].end; ++k) {
      if (instance[k] < 0 || g.segment[k] != SegmentKind::useful) continue;
      const auto i = static_cast<std::size_t>(instance[k]);
      const double own = useful[l][i];
      if (own > 0) cost[k] *= sum[i] / count[i] / own;
    }
}

// An operation's cost beyond its transfers on the fitted network: what is left of it when its
// messages arrive as the network model says (the measured times then replay as measured, but for
// a message faster than the model).
double cost_beyond_transfer(const ActivityGraph& g, const NetworkModel& fitted, std::uint32_t k) {
  const std::uint32_t previous = g.previous(k);
  double ready = previous == kNoNode ? g.start_ns : g.time[previous];
  for (std::uint32_t e = g.in_begin[k]; e < g.in_begin[k + 1]; ++e)
    if (g.edges[e].source != k) ready = std::max(ready, g.time[g.edges[e].source]);
  double arrival = ready;
  for (std::uint32_t e = g.in_begin[k]; e < g.in_begin[k + 1]; ++e)
    if (g.edges[e].source != k && network_edge(g.edges[e].kind))
      arrival = std::max(arrival, g.time[g.edges[e].source] + fitted.transfer_ns(g.edges[e]));
  return std::max(0.0, g.time[k] - arrival);
}

}  // namespace

bool interval_named(const ActivityGraph& graph, const std::string& name) {
  return std::any_of(graph.intervals.begin(), graph.intervals.end(),
                     [&](const GraphInterval& i) { return i.name == name; });
}

ReplayResult replay(const ActivityGraph& g, const NetworkModel& fitted, const ReplayChanges& changes) {
  using Network = ReplayChanges::Network;
  ReplayResult r;
  const std::size_t n = g.nodes();
  r.cost = g.cost;
  r.transfer.assign(g.edges.size(), 0);
  const NetworkModel& network = changes.network == Network::model ? changes.model : fitted;
  if (changes.network == Network::fitted || changes.network == Network::model)
    for (std::uint32_t e = 0; e < (g.in_begin.empty() ? 0 : g.in_begin[g.first_hub()]);
         ++e)  // into locations
      if (network_edge(g.edges[e].kind)) r.transfer[e] = network.transfer_ns(g.edges[e]);
  for (std::uint32_t k = 0; k < n; ++k) {
    const SegmentKind s = g.segment[k];
    if (g.is_hub(k)) {
      r.cost[k] = 0;
    } else if (s == SegmentKind::mpi || s == SegmentKind::shmem) {
      if (changes.network == Network::ideal) {
        r.cost[k] = 0;
      } else if (changes.network != Network::measured) {
        r.cost[k] = cost_beyond_transfer(g, fitted, k);
      }
    } else if (s == SegmentKind::openmp && changes.ideal_openmp) {
      r.cost[k] = 0;
    }
  }
  for (const std::string& name : changes.balance) balance_interval(g, name, r.cost);
  for (const auto& [name, factor] : changes.scale) {
    if (!(factor > 0)) continue;
    const std::vector<std::uint8_t> inside = frames_inside(g, name);
    for (std::uint32_t k = 0; k < n; ++k)
      if (g.segment[k] == SegmentKind::useful && inside[g.stack[k]]) r.cost[k] /= factor;
  }
  r.time.assign(n, 0);
  r.bound_by.assign(n, kBoundByPrevious);
  r.start_ns = g.start_ns;
  r.end_ns = g.start_ns;
  for (const std::uint32_t k : g.order) {
    double ready = -std::numeric_limits<double>::infinity();
    std::int32_t bound = kBoundByPrevious;
    if (!g.is_hub(k)) {
      const std::uint32_t previous = g.previous(k);
      ready = previous == kNoNode ? g.start_ns : r.time[previous];
      bound = previous == kNoNode ? kBoundByStart : kBoundByPrevious;
    }
    for (std::uint32_t e = g.in_begin[k]; e < g.in_begin[k + 1]; ++e) {
      const std::uint32_t source = g.edges[e].source;
      if (source == k) continue;
      const double arrival = r.time[source] + r.transfer[e];
      if (arrival > ready) {
        ready = arrival;
        bound = static_cast<std::int32_t>(e);
      }
    }
    if (!(ready > -std::numeric_limits<double>::infinity())) ready = g.time[k];  // a hub nothing reached
    r.time[k] = ready + r.cost[k];
    r.bound_by[k] = bound;
    if (!g.is_hub(k) && r.time[k] >= r.end_ns) {
      r.end_ns = r.time[k];
      r.last = k;
    }
  }
  return r;
}

}  // namespace parperf::analysis
