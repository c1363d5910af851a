// How far a score from sampled bursts may be from the exact one (`parperf cc --sampled`). Each burst
// is scored on its own; the program's score, computed from the summed histograms, is the mean of the
// bursts' scores weighted by their word accesses (both scores are linear in the counts). Its
// uncertainty is that weighted mean's standard error, from the spread of the bursts' scores (the
// ratio estimator's variance: sum w_i^2 (x_i - mean)^2 / (sum w_i)^2, times n / (n - 1)), given as
// the half width of a 95 % interval (1.96 standard errors). Fewer than 2 bursts: unknown.
#pragma once

#include <cstdint>
#include <span>

#include "format/locality_result.hpp"

namespace parperf::locality {

using format::BurstUncertainty;

struct BurstScore {
  double spatial = 0;
  double temporal = 0;
  std::uint64_t word_accesses = 0;  // the burst's scored word accesses: its weight
};

BurstUncertainty burst_uncertainty(std::span<const BurstScore> bursts);

}  // namespace parperf::locality
