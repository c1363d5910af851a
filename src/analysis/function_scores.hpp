// Scoring a measured run's instrumented functions for a filter (`parperf filter suggest`), in the
// way the instrumenting tools score their measurements (Score-P's scorep-score): per function its
// calls, its time and its time per call, and what measuring it costs — calls x the cost of one
// probe pair. A function called often whose calls are short costs more to measure than it tells:
// it is proposed for exclusion. Pure: the figures come from the analysed interval tree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

struct FunctionScoreOptions {
  // What one measured call costs (entry and exit hooks with their interval begin and end), ns:
  // the run's calibrated probe cost when it has one (Analysis::probe_compensation), else this.
  double probe_ns = 25;
  std::uint64_t min_calls = 100;             // fewer calls cost too little to matter
  double max_seconds_per_call = 1e-6;        // a call shorter than this is mostly measurement
  std::vector<std::string> keep = {"main"};  // never proposed (the program's entry)
};

struct FunctionScore {
  std::string name;  // as the report names the function
  std::string file;
  std::int64_t line = 0;
  std::uint64_t calls = 0;      // entries, over every location and every place in the tree
  double seconds = 0;           // inclusive time, a recursive function's inner calls counted once
  double seconds_per_call = 0;  // seconds / calls
  double overhead_seconds = 0;  // calls x probe cost: what measuring it costs the run
  bool exclude = false;         // proposed for exclusion
};

struct FunctionScoring {
  std::vector<FunctionScore> functions;  // proposed exclusions first, each group most overhead first
  double probe_ns = 0;                   // the probe cost used
  double program_seconds = 0;            // the program interval's time, summed over its locations
  double excluded_overhead_seconds = 0;  // what the proposed exclusions would save
  FunctionScoreOptions options;
};

// The instrumented functions of `tree` (intervals of kind `function`) and the proposal.
FunctionScoring score_functions(const IntervalTree& tree, const FunctionScoreOptions& options);

}  // namespace parperf::analysis
