#include "analysis/locality/burst_uncertainty.hpp"

#include <cmath>

namespace parperf::locality {

namespace {

constexpr double kNormal95 = 1.96;  // two-sided 95 % quantile of the normal distribution

double half_width(std::span<const BurstScore> bursts, double BurstScore::*score) {
  double total = 0, weighted = 0;
  for (const BurstScore& b : bursts) {
    total += static_cast<double>(b.word_accesses);
    weighted += static_cast<double>(b.word_accesses) * b.*score;
  }
  const double mean = weighted / total;
  double spread = 0;
  for (const BurstScore& b : bursts) {
    const double deviation = static_cast<double>(b.word_accesses) * (b.*score - mean);
    spread += deviation * deviation;
  }
  const auto n = static_cast<double>(bursts.size());
  return kNormal95 * std::sqrt(spread * n / (n - 1)) / total;
}

}  // namespace

BurstUncertainty burst_uncertainty(std::span<const BurstScore> bursts) {
  BurstUncertainty result;
  std::uint64_t weighed = 0;
  for (const BurstScore& b : bursts)
    if (b.word_accesses > 0) ++weighed;
  result.bursts = weighed;
  if (weighed < 2) return result;
  result.spatial_half_width = half_width(bursts, &BurstScore::spatial);
  result.temporal_half_width = half_width(bursts, &BurstScore::temporal);
  return result;
}

}  // namespace parperf::locality
