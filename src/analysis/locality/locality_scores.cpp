#include "analysis/locality/locality_scores.hpp"

#include <algorithm>

namespace parperf::locality {

double spatial_locality(std::span<const std::uint64_t> strides, std::uint64_t word_accesses) {
  if (word_accesses == 0 || strides.size() < 2) return 0;
  double sum = 0;
  for (std::size_t i = 1; i + 1 < strides.size(); ++i)
    sum += static_cast<double>(strides[i]) / static_cast<double>(i);
  return sum / static_cast<double>(word_accesses);
}

double temporal_locality(std::span<const std::uint64_t> reuse, std::uint64_t word_accesses,
                         std::uint32_t log2_n) {
  if (word_accesses == 0 || log2_n == 0) return 0;
  const double levels = log2_n;
  double sum = 0;
  const std::size_t last_bin = std::min<std::size_t>(log2_n, reuse.size() - 1);
  for (std::size_t bin = 1; bin <= last_bin; ++bin)  // bin = i + 1
    sum += static_cast<double>(reuse[bin]) * (levels - static_cast<double>(bin - 1)) / levels;
  return sum / static_cast<double>(word_accesses);
}

LocalityScores score(const LocalityHistograms& histograms, std::uint32_t log2_n) {
  LocalityScores scores;
  scores.spatial = spatial_locality(histograms.strides, histograms.word_accesses);
  scores.temporal = temporal_locality(histograms.reuse, histograms.word_accesses, log2_n);
  scores.histograms = histograms;
  return scores;
}

}  // namespace parperf::locality
