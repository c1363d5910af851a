// Ranks as a sentence names them: "1", "1, 3", "0-3, 7". Warnings and report headers use it so that a
// run of thousands of ranks still says which ones in one line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parperf::analysis {

// `ranks` in any order, duplicates allowed; consecutive ranks collapse into ranges, and past
// `max_items` items the rest is summarised ("0-3, 7 and 12 more").
std::string rank_list(std::vector<std::int64_t> ranks, std::size_t max_items = 8);

}  // namespace parperf::analysis
