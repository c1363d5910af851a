// The locality of an MPI job, rank against rank (analysis/locality/locality_ranks.hpp), rendered
// the way the efficiency report shows processes: a row per rank, then the minimum, the maximum (with
// the rank that has it) and the mean of each score, and a sentence on the rank that stands out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/locality/locality_ranks.hpp"
#include "format/locality_file.hpp"

namespace parperf::report {

// The table; `ranks` ordered by rank, at least one, `comparison` = locality::compare_ranks(ranks).
// `directory` names where each rank's detail is.
std::string locality_ranks_text(const std::vector<format::RankLocality>& ranks,
                                const locality::RankComparison& comparison, const std::string& directory);

// {"ranks": [{"rank", "spatial_locality", "temporal_locality", "loads", "stores", "footprint_words",
//             "word_accesses"}...],
//  "spatial_locality": {"min", "min_rank", "max", "max_rank", "mean"}, "temporal_locality": {...},
//  "results": [{"rank", "locality": <locality_json>}...]}
nlohmann::ordered_json locality_ranks_json(const std::vector<format::RankLocality>& ranks,
                                           const locality::RankComparison& comparison);

}  // namespace parperf::report
