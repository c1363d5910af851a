#include "analysis/trace/trace_findings.hpp"

#include <fmt/format.h>

#include <map>

#include "analysis/trace/part_reductions.hpp"
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

namespace {

// The replay that says what fixing a finding gains: its own interval balanced, the cause of the
// waiting it names balanced, or an ideal network for the cost of MPI calls.
std::optional<ReplayChanges> replay_for(const Finding& f, const ActivityGraph& g,
                                        const std::optional<std::string>& top_cause) {
  ReplayChanges changes;
  if (const auto name = finding_interval(f, g); name && !about_waiting(f.kind)) {
    changes.balance = {*name};
  } else if (about_waiting(f.kind) && top_cause) {
    changes.balance = {*top_cause};
  } else if (f.kind == FindingKind::mpi_call_cost) {
    changes.network = ReplayChanges::Network::ideal;
  } else {
    return std::nullopt;
  }
  return changes;
}

using ReplayPlan = std::vector<std::pair<std::size_t, ReplayChanges>>;  // (finding, its replay)

// Part 0's plan, on every part: the replays by parts are made by every part together, one after the
// other, whatever findings the other processes came to.
ReplayPlan first_parts_plan(const ReplayPlan& mine, PartExchange& exchange) {
  PartBytes bytes;
  if (exchange.part() == 0)
    for (const auto& [finding, c] : mine) {
      bytes.put(static_cast<std::uint64_t>(finding));
      bytes.put(static_cast<std::uint8_t>(c.network));
      bytes.put(c.model.latency_ns);
      bytes.put(c.model.bytes_per_ns);
      bytes.put(static_cast<std::uint8_t>(c.ideal_openmp));
      bytes.put(static_cast<std::uint64_t>(c.balance.size()));
      for (const std::string& name : c.balance) bytes.put_text(name);
      bytes.put(static_cast<std::uint64_t>(c.scale.size()));
      for (const auto& [name, factor] : c.scale) bytes.put_text(name), bytes.put(factor);
    }
  const std::vector<std::vector<std::uint8_t>> all = exchange.gather_all(bytes.bytes());
  ReplayPlan plan;
  for (PartBytesReader in(all.front()); !in.done();) {
    const auto finding = static_cast<std::size_t>(in.take<std::uint64_t>());
    ReplayChanges c;
    c.network = static_cast<ReplayChanges::Network>(in.take<std::uint8_t>());
    c.model.latency_ns = in.take<double>();
    c.model.bytes_per_ns = in.take<double>();
    c.ideal_openmp = in.take<std::uint8_t>() != 0;
    for (auto n = in.take<std::uint64_t>(); n > 0; --n) c.balance.push_back(in.take_text());
    for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
      std::string name = in.take_text();
      c.scale.emplace_back(std::move(name), in.take<double>());
    }
    plan.emplace_back(finding, std::move(c));
  }
  return plan;
}

}  // namespace

void add_replayed_gains(std::vector<Finding>& findings, const TraceAnalysis& a) {
  // Locations the trace does not link are replayed as independent: balancing an interval over them
  // would gain nothing whatever their untraced synchronization made them wait for. (The run's graph,
  // the same on every part.)
  if (!a.graph || a.graph->locations_independent()) return;
  const ActivityGraph& g = *a.graph;
  std::optional<std::string> top_cause;
  for (const DelayCause& c : a.delays.causes)
    if (!c.interval.name.empty()) {
      top_cause = c.interval.name;
      break;
    }
  ReplayPlan plan;
  for (std::size_t i = 0; i < findings.size(); ++i)
    if (std::optional<ReplayChanges> changes = replay_for(findings[i], g, top_cause))
      plan.emplace_back(i, std::move(*changes));
  if (a.part) plan = first_parts_plan(plan, *a.exchange);
  for (const auto& [i, changes] : plan) {
    const WhatIf w = what_if(a, changes);
    if (i >= findings.size()) continue;  // another process's finding: its replay is made together
    Finding& f = findings[i];
    f.replayed_gain = std::max(0.0, w.gain_ns()) * 1e-9;
    f.replay = w.changes.empty() ? std::string() : w.changes.front();
    f.evidence.push_back(
        {"replayed_share", w.measured_ns > 0 ? std::max(0.0, w.gain_ns()) / w.measured_ns : 0});
  }
}

}  // namespace parperf::analysis
