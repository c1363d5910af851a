#include "analysis/trace/what_if.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace parperf::analysis {
namespace {

void check_named(const ActivityGraph& graph, const std::string& name) {
  if (interval_named(graph, name)) return;
  std::string known;
  for (const GraphInterval& i : graph.intervals)
    if (known.find(fmt::format("'{}'", i.name)) == std::string::npos)
      known += fmt::format("{}'{}'", known.empty() ? "" : ", ", i.name);
  throw std::invalid_argument(fmt::format(
      "the trace has no interval named '{}'{}", name,
      known.empty() ? std::string(" (it has no intervals)") : fmt::format("; its intervals: {}", known)));
}

// The run replayed, whole or by parts (TraceAnalysis::part): its length and its phases' spans.
struct Replayed {
  double length_ns = 0;
  std::vector<double> phases_ns;
};
Replayed replayed(const TraceAnalysis& a, const ReplayChanges& changes) {
  Replayed out;
  if (a.part) {
    const ReplayResult r = replay_part(*a.part, a.network, changes, *a.exchange);
    out.length_ns = r.length();
    for (const GraphPhase& phase : a.part->graph.phases)
      out.phases_ns.push_back(phase_span(phase, r.time, *a.exchange).length());
  } else {
    const ReplayResult r = replay(*a.graph, a.network, changes);
    out.length_ns = r.length();
    for (const GraphPhase& phase : a.graph->phases)
      out.phases_ns.push_back(phase_span(phase, r.time).length());
  }
  return out;
}

// The phases' spans as measured.
std::vector<double> measured_phases(const TraceAnalysis& a) {
  std::vector<double> out;
  if (a.part)
    for (const GraphPhase& phase : a.part->graph.phases)
      out.push_back(phase_span(phase, a.part->graph.time, *a.exchange).length());
  else
    for (const GraphPhase& phase : a.graph->phases) out.push_back(phase_span(phase, a.graph->time).length());
  return out;
}

}  // namespace

bool WhatIf::self_check_passes() const {
  return measured_ns <= 0 || std::abs(replayed_ns - measured_ns) <= kReplayTolerance * measured_ns;
}

WhatIf what_if(const TraceAnalysis& a, const ReplayChanges& changes) {
  const ActivityGraph& g = *a.graph;
  for (const std::string& name : changes.balance) check_named(g, name);
  for (const auto& [name, factor] : changes.scale) check_named(g, name);
  WhatIf w;
  w.fitted = a.network;
  w.measured_ns = g.end_ns - g.start_ns;
  w.replayed_ns = a.replayed_ns;
  {
    const Replayed predicted = replayed(a, changes);
    w.predicted_ns = predicted.length_ns;
    const std::vector<double> measured = measured_phases(a);
    for (std::size_t p = 0; p < measured.size(); ++p)
      w.phases.push_back({p + 1, measured[p], 0, predicted.phases_ns[p]});
  }
  if (!w.phases.empty()) {  // one replay held at a time
    const Replayed unchanged = replayed(a, ReplayChanges{});
    for (std::size_t p = 0; p < w.phases.size(); ++p) w.phases[p].replayed_ns = unchanged.phases_ns[p];
  }
  using Network = ReplayChanges::Network;
  if (changes.network == Network::ideal)
    w.changes.push_back("ideal network (no latency, infinite bandwidth)");
  if (changes.network == Network::model)
    w.changes.push_back(fmt::format("network of latency {:g} s and bandwidth {:g} B/s",
                                    changes.model.latency_ns * 1e-9, changes.model.bytes_per_ns * 1e9));
  for (const std::string& name : changes.balance) w.changes.push_back(fmt::format("'{}' balanced", name));
  for (const auto& [name, factor] : changes.scale)
    w.changes.push_back(fmt::format("'{}' {:g} times faster", name, factor));
  if (!w.self_check_passes()) {
    const GraphUnlinked& u = g.unlinked;
    if (u.sends + u.receives + u.incomplete_collectives > 0)
      w.off_because.push_back(fmt::format("{} messages and {} collective instances could not be paired",
                                          u.sends + u.receives, u.incomplete_collectives));
    if (u.nonblocking_collectives > 0)
      w.off_because.push_back(
          fmt::format("{} non-blocking collectives are taken as measured", u.nonblocking_collectives));
    if (u.cycles_broken > 0)
      w.off_because.push_back(fmt::format("{} dependencies formed cycles", u.cycles_broken));
    w.off_because.push_back(fmt::format(
        "the fitted network (latency {:.3g} s over {} messages) does not describe every transfer of the run",
        a.network.latency_ns * 1e-9, a.network.observations));
  }
  return w;
}

}  // namespace parperf::analysis
