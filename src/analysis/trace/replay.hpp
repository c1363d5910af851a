// A replay of the run through its activity graph (DESIGN.md section 10): every node's time
// recomputed in dependency order as max(previous node, each edge's source + its transfer) + the
// node's own cost, with the costs changed as asked. Replayed as measured, it gives the measured
// times back exactly; with the fitted network (network_model.hpp) the part of each receive that
// was its message's transfer is moved onto the message's edge, which is what lets a changed
// network change it.
//
// What it models: the order of the run's dependencies, each computation's length, each
// operation's cost beyond what it waited for, transfers by latency and bandwidth. What it does
// not: contention (a faster interval on one rank does not slow another's), overlap of computation
// with communication beyond what the dependencies allow, caches and frequencies changing with the
// work, and a different order of events (wildcard receives, locks taken in another order).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

struct ReplayChanges {
  enum class Network {
    measured,  // every cost as measured, no transfer apart: the measured times
    fitted,    // transfers by the fitted network (the default)
    ideal,     // zero latency, infinite bandwidth, MPI and OpenSHMEM calls free (POP's ideal network)
    model,     // transfers by `model`
  };
  Network network = Network::fitted;
  NetworkModel model;
  bool ideal_openmp = false;  // OpenMP synchronization free beyond its waiting (POP's ideal runtime)
  // Intervals (by name) whose every instance takes the mean of the instances run together: the
  // n-th instance on each location that runs it.
  std::vector<std::string> balance;
  std::vector<std::pair<std::string, double>> scale;  // (name, F): the interval runs F times faster
};

// What a replay keeps: its times (8 bytes a node), or also what a critical path through them follows
// (28 more: costs, what bound each node, each edge's transfer).
enum class ReplayDetail { times, path };

struct ReplayResult {
  std::vector<double> time;  // per node
  // ReplayDetail::path only (empty otherwise):
  std::vector<double> cost;            // per node: its own cost in this replay
  std::vector<double> transfer;        // per edge
  std::vector<std::int32_t> bound_by;  // as ActivityGraph::bound_by, for this replay
  double start_ns = 0, end_ns = 0;
  std::uint32_t last = kNoNode;  // the node that ends the run
  double length() const { return end_ns - start_ns; }
};

// `fitted`: the network fitted from the run (used by Network::fitted, and to take the measured
// transfers out for ideal and model networks). Names in `changes` that no interval has are ignored:
// the caller checks them (interval_named). Each node's cost is worked out as the walk reaches it
// (all of them up front only to balance an interval).
ReplayResult replay(const ActivityGraph& graph, const NetworkModel& fitted, const ReplayChanges& changes,
                    ReplayDetail detail = ReplayDetail::times);

// The same replay of part `part.part` of the graph, walked by every part at once (part_sweep.hpp),
// each exchanging with the others what it needs: its times (for each part node, a ghost's its
// owner's) and, with ReplayDetail::path, what its nodes and edges followed, in part numbers, are
// those of the whole graph's replay, to the bit. start_ns and end_ns are the run's, and `last` the
// run's number of the node that ends it (GraphPart::global), on every part.
ReplayResult replay_part(const GraphPart& part, const NetworkModel& fitted, const ReplayChanges& changes,
                         PartExchange& exchange, ReplayDetail detail = ReplayDetail::times);

// Whether any interval of the graph is called `name`.
bool interval_named(const ActivityGraph& graph, const std::string& name);

}  // namespace parperf::analysis
