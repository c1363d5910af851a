// The scores of DESIGN.md section 6 as pure functions of the histograms, so that any combination
// of histograms (threads, functions, runs) can be scored again.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "analysis/locality/locality_report.hpp"

namespace parperf::locality {

// The reuse-distance bin of a distance: 0 for 0 and 1, otherwise b with 2^(b-1) < d <= 2^b. Inline:
// the engine bins every word access.
inline std::size_t reuse_bin(std::uint64_t distance) {
  return distance <= 1 ? 0 : static_cast<std::size_t>(std::bit_width(distance - 1));
}

// SL = sum_{i=1..i_max} (strides[i] / word_accesses) / i, with i_max = strides.size() - 2 (the
// layout of LocalityHistograms::strides). 0 when there is no access.
double spatial_locality(std::span<const std::uint64_t> strides, std::uint64_t word_accesses);

// TL = sum_{i=0..L-1} (reuse_{2^(i+1)} - reuse_{2^i}) (L - i) / L with L = log2_n, where reuse_d is
// the fraction of word_accesses with distance <= d. reuse_{2^(i+1)} - reuse_{2^i} is exactly bin
// i + 1, so distances 0 and 1 (bin 0) and cold accesses do not contribute. 0 when no access.
double temporal_locality(std::span<const std::uint64_t> reuse, std::uint64_t word_accesses,
                         std::uint32_t log2_n);

LocalityScores score(const LocalityHistograms& histograms, std::uint32_t log2_n);

}  // namespace parperf::locality
