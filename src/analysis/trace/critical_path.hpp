// The critical path of a run (DESIGN.md section 10): the longest path through its activity graph
// from the run's start to its end, whose length is the run's time. Found backwards from the node
// that ends the run: at each node, to what it waited for last (its previous node, or the edge whose
// source came last), so every step of the path is time that made the run as long as it was. Its
// time per interval, location and activity is what shortening that code or call could gain; an
// interval with no time on it (hidden behind others) gains nothing from being faster.
//
// Along the path, its computation is split by what the other locations did meanwhile (as thread
// profilers that follow the critical path do): while others work (time they overlap with), and
// while others wait (time that is serial: nobody else could do anything).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/path_functions.hpp"
#include "analysis/trace/replay.hpp"

namespace parperf::analysis {

struct PathShare {
  double time_ns = 0;
  double share = 0;  // of the path's length, 0..1
};

struct PathInterval : PathShare {
  GraphInterval interval;  // time inside it (and what it contains), on the path
  double total_ns = 0;     // its time on every location, on the path or not
  // It works (total_ns at least 5 % of the path's length) but has under 1 % of the path: making it
  // faster gains nothing. Every report names these (text, JSON, HTML) by this flag. Never set when
  // the path's unexplained start-up is as large (CriticalPath::startup_ns).
  bool off_path = false;
};

struct PathLocation : PathShare {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
};

// What the path's time was spent on: "computation", "message transfer", an operation by name
// ("MPI_Recv": its own cost, after it waited), "OpenMP idle", "start-up" (before a location's first
// event), "recording paused" (phase control switched it off).
struct PathActivity : PathShare {
  std::string name;
};

struct CriticalPath {
  double length_ns = 0;
  std::vector<PathInterval> intervals;   // every interval of the run, most time on the path first
  std::vector<PathLocation> locations;   // most time first
  std::vector<PathActivity> activities;  // most time first
  std::uint64_t location_changes = 0;    // how often the path moves to another location
  double computation_ns = 0;             // its computation,
  double while_others_work_ns = 0;       // weighted by the share of the other locations working,
  double while_others_wait_ns = 0;       // and by the share waiting or idle
  // Its start-up: time before a location's first event, which no traced dependency explains (a thread
  // created by code the trace does not link, a process started late). At 5 % of the path or more,
  // no interval is judged off the path (PathInterval::off_path): what held that location back is
  // not known.
  double startup_ns = 0;
  bool startup_unexplained = false;  // startup_ns is 5 % of the path or more
  // Its measured spans (start-up left out: not the program's time), by location and time, those that
  // touch merged: where a location's samples were taken on the path. Empty when not asked for
  // (PathPieces::none), and once analyse_traces found the path's functions from them.
  std::vector<PathPiece> pieces;
  PathFunctions functions;  // from the samples, when the run was sampled (set by analyse_traces)
};

// Whether the path keeps its measured spans (CriticalPath::pieces), which only the functions on it
// need (path_functions, for a sampled run): a path through every node of a run of tiny OpenMP regions
// has one a few nodes, held as the rest of the analysis runs.
enum class PathPieces { kept, none };

// Followed through a replay's times (one that kept its path: ReplayDetail::path); or through the
// graph's own (as measured), which is the path of a replay as measured without holding one.
CriticalPath critical_path(const ActivityGraph& graph, const ReplayResult& replayed,
                           PathPieces pieces = PathPieces::kept);
CriticalPath critical_path(const ActivityGraph& graph, PathPieces pieces = PathPieces::kept);
// The path as measured through a part of the graph (graph_part.hpp), followed by every part at once:
// the part holding the path's node walks it back and hands it on where it crosses to another. The
// whole graph's path, to the bit, on every part.
CriticalPath critical_path(const GraphPart& part, PartExchange& exchange,
                           PathPieces pieces = PathPieces::kept);

}  // namespace parperf::analysis
