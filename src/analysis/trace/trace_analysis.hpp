// Everything the reports say about a traced run, from one call after loading: how much of its
// communication the trace could pair, the clock check and its repair, the wait states, the activity
// graph with its critical path, POP factors, delay costs and the fitted network, and the replay's
// self-check. `parperf report` (text, JSON, HTML), `parperf whatif` and `parperf export` render what
// it returns; each part is its own function (messages.hpp, clock_check.hpp, wait_states.hpp,
// activity_graph.hpp, clock_repair.hpp, critical_path.hpp, pop_factors.hpp, delay_costs.hpp,
// replay.hpp) for readers that need one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/clock_check.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/delay_costs.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/wait_states.hpp"

namespace parperf::analysis {

struct TraceAnalysis {
  std::uint64_t ranks = 0;  // with a trace
  bool processes = false;   // several ranks, or one that ran MPI or OpenSHMEM: its locations are a process's
  std::uint64_t messages = 0;
  std::uint64_t unmatched_sends = 0;
  std::uint64_t unmatched_receives = 0;
  std::uint64_t collectives = 0;  // complete instances
  std::uint64_t incomplete_collectives = 0;
  ClockCheck clock;  // before the repair
  ClockRepair repair;
  WaitStates waits;
  // The run's dependencies, repaired; what `parperf whatif` replays. Analysed by parts: the run's
  // locations, names, bounds and counts, without nodes; `part` holds this process's nodes.
  std::shared_ptr<const ActivityGraph> graph;
  // Analysed by parts (`parperf report --np K`): this process's part of the graph, repaired, and the
  // exchange with the other parts, with which every replay of it is made (what_if.hpp).
  std::shared_ptr<const GraphPart> part;
  PartExchange* exchange = nullptr;
  NetworkModel network;
  CriticalPath critical_path;
  Pop pop;
  DelayCosts delays;
  double replayed_ns = 0;  // the replay without changes, on the fitted network: the model's self-check
  std::vector<std::string> warnings;  // the traces' (cut short, events lost) and the clocks'
};

// The warning of a run whose locations no traced dependency links (ActivityGraph::locations_independent),
// or empty: both analyses add it to their warnings.
std::string independent_locations_warning(const ActivityGraph& graph);

// `threads`: how many threads it may run on. With two or more, parts that depend on neither's results
// run at once (side_by_side.hpp); the results are the same whatever the number.
TraceAnalysis analyse_traces(const TraceRun& traces, unsigned threads = 1);

// The same analysis made by the processes of an MPI job together, each holding one part of the
// graph (graph_part.hpp): `traces` has every rank of the run, in order, but only those of this part
// (`ranks`, exchange.part()) need their traces opened. Every part gets the whole analysis's figures,
// to the bit; its `part` and `exchange` replay the run with the others (what_if.hpp). Throws
// NotByParts, on every part, for what cannot yet be analysed by parts.
TraceAnalysis analyse_traces_by_parts(const TraceRun& traces, const RankPartition& ranks,
                                      PartExchange& exchange);

}  // namespace parperf::analysis
