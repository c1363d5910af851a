// The locality of an MPI job, rank against rank: `mpirun -np N parperf locality -- ./app` leaves one
// result per rank (DIR/locality-rank-R/locality.json), and `parperf report DIR` compares them the
// way the efficiency report compares processes: a row per rank, then the minimum, the maximum (with
// the rank that has it) and the mean of each score, and a sentence on the rank that stands out.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/locality/locality_result.hpp"

namespace parperf::report {

// "locality-rank-<rank>", the subdirectory of the run directory that holds one rank's result, and
// back: the rank a subdirectory name stands for, nothing for any other name.
std::string rank_directory_name(std::int64_t rank);
std::optional<std::int64_t> rank_of_directory(std::string_view name);

struct RankLocality {
  std::int64_t rank = 0;
  LocalityResult result;
};

// The table; `ranks` ordered by rank, at least one. `directory` names where each rank's detail is.
std::string locality_ranks_text(const std::vector<RankLocality>& ranks, const std::string& directory);

// {"ranks": [{"rank", "spatial_locality", "temporal_locality", "loads", "stores", "footprint_words",
//             "word_accesses"}...],
//  "spatial_locality": {"min", "min_rank", "max", "max_rank", "mean"}, "temporal_locality": {...},
//  "results": [{"rank", "locality": <locality_json>}...]}
nlohmann::ordered_json locality_ranks_json(const std::vector<RankLocality>& ranks);

}  // namespace parperf::report
