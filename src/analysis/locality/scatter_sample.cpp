#include "analysis/locality/scatter_sample.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parperf::locality {

void ScatterSample::keep(const ScatterPoint& point) {
  if (capacity_ == 0) {
    next_kept_ = std::numeric_limits<std::uint64_t>::max();
    return;
  }
  if (points_.size() < capacity_) {
    points_.push_back(point);
    if (points_.size() < capacity_) {
      ++next_kept_;
      return;
    }
    weight_ = std::exp(std::log(uniform()) / static_cast<double>(capacity_));
  } else {
    const auto slot = static_cast<std::size_t>(uniform() * static_cast<double>(capacity_));
    points_[std::min(slot, capacity_ - 1)] = point;
    weight_ *= std::exp(std::log(uniform()) / static_cast<double>(capacity_));
  }
  draw_next_kept();
}

void ScatterSample::draw_next_kept() {
  const double skip = std::floor(std::log(uniform()) / std::log1p(-weight_));
  // A huge skip (weight_ underflowing) means: keep nothing more.
  constexpr double kFar = 9e18;
  next_kept_ = skip >= kFar ? std::numeric_limits<std::uint64_t>::max()
                            : next_kept_ + static_cast<std::uint64_t>(skip) + 1;
}

double ScatterSample::uniform() {
  // SplitMix64; deterministic so that reports are reproducible.
  std::uint64_t z = (rng_state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
}

std::vector<ScatterPoint> ScatterSample::take() {
  std::vector<ScatterPoint> points = std::move(points_);
  std::sort(points.begin(), points.end(),
            [](const ScatterPoint& a, const ScatterPoint& b) { return a.access_index < b.access_index; });
  return points;
}

}  // namespace parperf::locality
