#include "analysis/sample_share.hpp"

#include <algorithm>
#include <cmath>

namespace parperf::analysis {

ShareInterval share_interval(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return {};
  constexpr double z = 1.959963984540054;  // the normal distribution's 97.5th percentile
  const double n = static_cast<double>(whole);
  const double p = static_cast<double>(std::min(part, whole)) / n;
  const double z2n = z * z / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double spread = z * std::sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n);
  // Exact arithmetic puts p inside; rounding can leave 1e-19 between them at p = 0 or 1.
  return {p, std::clamp(centre - spread, 0.0, p), std::clamp(centre + spread, p, 1.0)};
}

}  // namespace parperf::analysis
