// analyse_traces_by_parts (trace_analysis.hpp): each process of `parperf report --np K` reads,
// matches and links its own ranks into its part of the graph, then every analysis runs on the parts
// together, each figure combined as the whole graph's is made.
#include <algorithm>
#include <memory>
#include <utility>

#include "analysis/trace/graph_part_build.hpp"
#include "analysis/trace/part_matching.hpp"
#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/trace_samples.hpp"

namespace parperf::analysis {
namespace {

// The ranks of part `part`, with their traces: what the part reads, and where its waits are found.
TraceRun own_ranks(const TraceRun& traces, const RankPartition& ranks, std::uint32_t part) {
  TraceRun own;
  own.ranks.assign(traces.ranks.begin() + static_cast<std::ptrdiff_t>(ranks.first_rank[part]),
                   traces.ranks.begin() + static_cast<std::ptrdiff_t>(ranks.first_rank[part + 1]));
  own.clocks = traces.clocks;
  return own;
}

// The run's graph as the reports read it without its nodes: every part's locations (numbered in the
// run), the run's names, phases' count, bounds and counts.
std::shared_ptr<const ActivityGraph> graph_of_run(const GraphPart& part, PartExchange& exchange) {
  const ActivityGraph& g = part.graph;
  auto run = std::make_shared<ActivityGraph>();
  std::vector<GraphLocation> mine = g.locations;
  for (GraphLocation& l : mine) {
    l.first += part.first_node;
    l.end += part.first_node;
  }
  PartBytes bytes;
  bytes.put_all(mine);
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(bytes.bytes())) {
    PartBytesReader in(each);
    for (const GraphLocation& l : in.take_all<GraphLocation>()) run->locations.push_back(l);
  }
  run->intervals = g.intervals;
  run->stacks = g.stacks;
  run->operations = g.operations;
  run->phases.resize(g.phases.size());
  run->start_ns = g.start_ns;
  run->end_ns = g.end_ns;
  run->linked = g.linked;
  run->unlinked = g.unlinked;
  run->events = g.events;  // the run's already
  return run;
}

}  // namespace

TraceAnalysis analyse_traces_by_parts(const TraceRun& traces, const RankPartition& ranks,
                                      PartExchange& exchange) {
  const std::uint32_t me = exchange.part();
  const TraceRun own = own_ranks(traces, ranks, me);
  GraphPartDraft draft = read_graph_part(traces, ranks, me, exchange);
  Communication communication = match_communication(traces, ranks, me, exchange);
  auto part =
      std::make_shared<GraphPart>(link_graph_part(std::move(draft), communication, traces, ranks, exchange));

  TraceAnalysis a;
  a.ranks = traces.ranks.size();
  a.processes = a.ranks > 1 || std::any_of(traces.ranks.begin(), traces.ranks.end(), [](const RankTrace& r) {
                  return r.profile && (r.profile->has_mpi || r.profile->has_shmem);
                });
  // A message between two parts is on both: its receiver's counts it; an instance, its first member's.
  const auto is_own = [&](std::int64_t rank) { return rank_trace(own, rank) != nullptr; };
  std::uint64_t messages = 0, collectives = 0;
  for (const Message& m : communication.messages) messages += is_own(m.receive.rank) ? 1 : 0;
  for (const CollectiveInstance& c : communication.collectives)
    collectives += !c.members.empty() && is_own(c.members.front().rank) ? 1 : 0;
  a.messages = sum_of_parts(exchange, messages);
  a.collectives = sum_of_parts(exchange, collectives);
  a.unmatched_sends = communication.unmatched_sends;  // the run's, from the matching
  a.unmatched_receives = communication.unmatched_receives;
  a.incomplete_collectives = communication.incomplete_collectives;
  a.clock = check_clocks(communication, own, exchange);

  a.repair = repair_clock_condition(*part, exchange);
  repair_communication(communication, a.repair, traces, ranks, exchange);
  a.network = fit_network(*part, exchange);
  a.waits = find_wait_states(own, communication, exchange);
  communication = {};

  const bool sampled =
      any_part(exchange, std::any_of(own.ranks.begin(), own.ranks.end(),
                                     [](const RankTrace& r) { return !r.trace->sample_blocks.empty(); }));
  a.critical_path = critical_path(*part, exchange, sampled ? PathPieces::kept : PathPieces::none);
  std::vector<std::string> sample_warnings;
  if (sampled) {
    TraceSamples samples = load_trace_samples(own);
    a.critical_path.functions =
        path_functions(std::move(a.critical_path.pieces), a.critical_path.length_ns, samples, exchange);
    std::vector<PathPiece>().swap(a.critical_path.pieces);
    PartBytes bytes;
    for (const std::string& w : samples.warnings) bytes.put_text(w);
    for (const std::vector<std::uint8_t>& each : exchange.gather_all(bytes.bytes()))
      for (PartBytesReader in(each); !in.done();) sample_warnings.push_back(in.take_text());
  }
  a.pop = pop_factors(*part, a.network, exchange);
  a.replayed_ns = replay_part(*part, a.network, {}, exchange).length();
  a.delays = delay_costs(*part, exchange);
  a.graph = graph_of_run(*part, exchange);
  a.part = std::move(part);
  a.exchange = &exchange;
  a.warnings = traces.warnings;
  a.warnings.insert(a.warnings.end(), traces.clocks.warnings.begin(), traces.clocks.warnings.end());
  a.warnings.insert(a.warnings.end(), sample_warnings.begin(), sample_warnings.end());
  if (std::string w = independent_locations_warning(*a.graph); !w.empty()) a.warnings.push_back(std::move(w));
  return a;
}

}  // namespace parperf::analysis
