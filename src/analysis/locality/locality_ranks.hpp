// The locality of an MPI job, rank against rank: `mpirun -np N parperf locality -- ./app` leaves one
// result per rank (format/locality_file.hpp), compared the way the efficiency analysis compares
// processes (analysis::compare_values): the minimum and the maximum of each score with the rank
// that has it, the mean, and whether a rank stands out, with the function that pulls it down.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/characteristics.hpp"
#include "format/locality_file.hpp"

namespace parperf::locality {

// A difference of scores below this is noise of the measurement, not a rank that behaves apart.
inline constexpr double kNotableRankDifference = 0.1;

// One score (SL or TL) of the ranks' programs.
struct RankScoreComparison {
  analysis::Extreme spread;  // its processors are ranks
  // max − min >= kNotableRankDifference: the rank with the minimum behaves apart.
  bool differs = false;
  // When it differs: among that rank's busy functions (each with at least a tenth of its word
  // accesses; the busiest one if none is), the one with the lowest score. None without functions.
  std::optional<std::uint32_t> weakest_function;
};

struct RankComparison {
  RankScoreComparison spatial;
  RankScoreComparison temporal;
};

// `ranks` ordered by rank, at least one.
RankComparison compare_ranks(const std::vector<format::RankLocality>& ranks);

}  // namespace parperf::locality
