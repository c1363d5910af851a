// The functions on a run's critical path (DESIGN.md section 10; issue 26): which code the path's
// time was spent in, from the call-path samples of `parperf run --trace --sample`. The path is a
// list of measured spans per location (its pieces, critical_path.hpp); a sample of a location that
// falls in one of them was taken on the path, any other is off it. A function's time is its samples'
// weights times the sampling period: inclusive (the function anywhere in the sampled stack, once per
// sample) and self (the interrupted function). A function with much time over the run and little on
// the path is hidden behind other locations' work: making it faster gains nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/trace_samples.hpp"

namespace parperf::analysis {

// A measured span of the critical path on one location: [begin_ns, end_ns] on the corrected clock.
struct PathPiece {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  double begin_ns = 0, end_ns = 0;
};

struct PathFunction {
  std::string name;
  std::string file;           // empty if unknown
  std::string module;         // the executable or library; empty if unknown
  double time_ns = 0;         // inclusive, on the path
  double self_ns = 0;         // as the interrupted function, on the path
  double share = 0;           // time_ns of the path's length, 0..1
  double total_ns = 0;        // inclusive, over the whole run (on the path or not)
  std::uint64_t samples = 0;  // on the path, inclusive (weights)
};

struct PathFunctions {
  bool sampled = false;                 // whether the traces held samples at all
  std::uint64_t samples = 0;            // every sample's weight
  std::uint64_t path_samples = 0;       // of those, taken on the path: what the times below rest on
  std::vector<PathFunction> functions;  // every sampled function, most time on the path first
};

// Pure. `pieces` in any order; `length_ns` the path's length (for the shares).
PathFunctions path_functions(std::vector<PathPiece> pieces, double length_ns, const TraceSamples& samples);
// The same from the samples of the parts of a run analysed by parts (graph_part.hpp), together:
// `pieces`, the whole path's; `own`, the samples of the part's ranks. The run's functions on every
// part, the whole run's to the bit.
PathFunctions path_functions(std::vector<PathPiece> pieces, double length_ns, const TraceSamples& own,
                             PartExchange& exchange);

}  // namespace parperf::analysis
