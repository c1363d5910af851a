#include "analysis/trace/trace_findings.hpp"

#include <fmt/format.h>

#include <map>

#include "analysis/trace/what_if.hpp"

namespace parperf::analysis {
namespace {

// The interval a finding concerns, by name, when the trace has it.
std::optional<std::string> finding_interval(const Finding& f, const ActivityGraph& g) {
  std::optional<std::string> name;
  if (f.interval) name = f.interval->name;
  if (f.loop) name = f.loop->identity.name;
  if (name && interval_named(g, *name)) return name;
  return std::nullopt;
}

bool about_waiting(FindingKind kind) {
  switch (kind) {
    case FindingKind::mpi_waits_for_partner:
    case FindingKind::mpi_collective_arrival:
    case FindingKind::late_arrival_barrier:
    case FindingKind::unbalanced_barrier:
    case FindingKind::barrier_arrival:
    case FindingKind::idle_between_processors:
    case FindingKind::synchronization_loss:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::vector<Finding> delay_cause_findings(const TraceAnalysis& a, double total_time, std::size_t count) {
  std::vector<Finding> out;
  std::map<std::int64_t, std::uint32_t> rank_threads;  // how the reports name its location (location_label)
  if (a.graph)
    for (const GraphLocation& l : a.graph->locations) ++rank_threads[l.rank];
  for (const DelayCause& c : a.delays.causes) {
    if (out.size() == count || c.delay_ns < 0.01 * a.delays.waiting_ns) break;
    Finding f;
    f.kind = FindingKind::delay_cause;
    if (!c.interval.name.empty())
      f.interval = IntervalIdentity{
          .kind = c.interval.kind, .name = c.interval.name, .file = c.interval.file, .line = c.interval.line};
    f.late_rank = RankAtSite{.rank = c.rank};
    const double delay = c.delay_ns * 1e-9;
    f.estimated_gain = delay;
    f.share = total_time > 0 ? delay / total_time : 0;
    f.evidence = {{"delay", delay},
                  {"thread", static_cast<double>(c.thread)},
                  {"waiting_locations", static_cast<double>(c.waiting)},
                  {"waits", static_cast<double>(c.waits)},
                  {"waiting", a.delays.waiting_ns * 1e-9},
                  {"processes", a.processes || rank_threads.size() > 1 ? 1.0 : 0.0},
                  {"rank_threads", static_cast<double>(rank_threads[c.rank])}};
    out.push_back(std::move(f));
  }
  return out;
}

void add_replayed_gains(std::vector<Finding>& findings, const TraceAnalysis& a) {
  if (!a.graph) return;
  const ActivityGraph& g = *a.graph;
  std::optional<std::string> top_cause;
  for (const DelayCause& c : a.delays.causes)
    if (!c.interval.name.empty()) {
      top_cause = c.interval.name;
      break;
    }
  for (Finding& f : findings) {
    ReplayChanges changes;
    if (const auto name = finding_interval(f, g); name && !about_waiting(f.kind)) {
      changes.balance = {*name};
    } else if (about_waiting(f.kind) && top_cause) {
      changes.balance = {*top_cause};
    } else if (f.kind == FindingKind::mpi_call_cost) {
      changes.network = ReplayChanges::Network::ideal;
    } else {
      continue;
    }
    const WhatIf w = what_if(a, changes);
    f.replayed_gain = std::max(0.0, w.gain_ns()) * 1e-9;
    f.replay = w.changes.empty() ? std::string() : w.changes.front();
    f.evidence.push_back(
        {"replayed_share", w.measured_ns > 0 ? std::max(0.0, w.gain_ns()) / w.measured_ns : 0});
  }
}

}  // namespace parperf::analysis
