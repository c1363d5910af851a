// One rank's part of the merged tree: `parperf report --rank R`, the OpenMP view of one process of a
// hybrid run, whose processors are that process's threads.
#pragma once

#include <cstdint>

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

// `tree` with only rank `rank`'s locations, and only the intervals that rank has (the program
// always). Attribution happens before: figures that needed the other ranks (matched collectives,
// corrected clocks) are kept as they were computed over the whole run.
IntervalTree rank_view(const IntervalTree& tree, std::int64_t rank);

}  // namespace parperf::analysis
