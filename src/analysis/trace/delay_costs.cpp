#include "analysis/trace/delay_costs.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace parperf::analysis {
namespace {

// Long enough for any wait of a real run; a bound on the work of one wait in a damaged one.
constexpr int kMaxSteps = 1 << 16;

struct Cause {
  double delay_ns = 0;
  std::set<std::uint32_t> waiting;
  std::uint64_t waits = 0;
};

// A node as measured (ActivityGraph::measured), a hub's worked out once: every member of a collective
// that waited at it asks which arrival came last, and a hub's edges are all its members' (a scan of
// them for each member made the delay costs quadratic in the members).
class MeasuredSteps {
 public:
  explicit MeasuredSteps(const ActivityGraph& g) : g_(g), hubs_(g.nodes() - g.first_hub()) {}
  ActivityGraph::Step operator()(std::uint32_t node) {
    if (!g_.is_hub(node)) return g_.measured(node);
    std::optional<ActivityGraph::Step>& hub = hubs_[node - g_.first_hub()];
    if (!hub) hub = g_.measured(node);
    return *hub;
  }

 private:
  const ActivityGraph& g_;
  std::vector<std::optional<ActivityGraph::Step>> hubs_;
};

// The node a wait at edge `e` waited for, through a hub to the arrival that came last.
std::uint32_t late_node(const ActivityGraph& g, MeasuredSteps& steps, std::size_t e) {
  std::uint32_t source = g.edges[e].source;
  for (std::int32_t bound = 0; g.is_hub(source) && (bound = steps(source).bound_by) >= 0;)
    source = g.edges[static_cast<std::size_t>(bound)].source;
  return source;
}

}  // namespace

DelayCosts delay_costs(const ActivityGraph& g) {
  DelayCosts result;
  std::map<std::pair<std::uint32_t, std::uint32_t>, Cause> causes;  // (location, interval + 1)
  MeasuredSteps steps(g);
  g.for_each_node_with_edges([&](std::uint32_t k) {  // (a node without edges is bound by its previous)
    if (g.is_hub(k)) return;
    const std::int32_t waited_for = g.bound_by(k);
    if (waited_for < 0) return;
    const std::uint32_t previous = g.previous(k);
    if (previous == kNoNode) return;
    const std::uint32_t late = late_node(g, steps, static_cast<std::size_t>(waited_for));
    if (g.is_hub(late)) return;
    const std::uint32_t waiting = g.location_of(k);
    // The walk back from the late node stays on its location until it follows an edge.
    std::uint32_t location = g.location_of(late);
    if (location == waiting) return;
    double remaining = g.time[late] - g.time[previous];
    if (remaining <= 0) return;
    result.waiting_ns += remaining;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> took_part;  // the causes it charged: a few
    std::uint32_t j = late;
    for (int step = 0; step < kMaxSteps && remaining > 0 && j != kNoNode; ++step) {
      const ActivityGraph::Step walked = steps(j);
      if (!g.is_hub(j)) {
        const double charged = std::min(remaining, walked.cost);
        if (g.segment[j] == SegmentKind::useful && charged > 0) {
          const std::uint32_t f = g.stack[j];
          const std::pair key(location, f == 0 ? 0u : g.stacks[f].interval + 1);
          Cause& c = causes[key];
          c.delay_ns += charged;
          c.waiting.insert(waiting);
          if (std::find(took_part.begin(), took_part.end(), key) == took_part.end()) {
            took_part.push_back(key);
            ++c.waits;
          }
          result.charged_ns += charged;
        }
        remaining -= charged;
      }
      const std::int32_t bound = walked.bound_by;
      if (bound == kBoundByStart) break;
      if (bound == kBoundByPrevious) {
        j = g.previous(j);
      } else {
        j = g.edges[static_cast<std::size_t>(bound)].source;
        location = g.location_of(j);
      }
    }
  });
  for (const auto& [key, c] : causes) {
    DelayCause d;
    d.location = key.first;
    d.rank = g.locations[key.first].rank;
    d.thread = g.locations[key.first].thread;
    if (key.second > 0) d.interval = g.intervals[key.second - 1];
    d.delay_ns = c.delay_ns;
    d.waiting = c.waiting.size();
    d.waits = c.waits;
    result.causes.push_back(std::move(d));
  }
  std::stable_sort(result.causes.begin(), result.causes.end(),
                   [](const DelayCause& a, const DelayCause& b) { return a.delay_ns > b.delay_ns; });
  return result;
}

}  // namespace parperf::analysis
