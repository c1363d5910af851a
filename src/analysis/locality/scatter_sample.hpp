// A bounded, uniform sample of the accesses for the address-over-time scatter plot: reservoir
// sampling with Li's Algorithm L, which draws the index of the next replacement instead of a random
// number per access, so that offering a point is one comparison on the hot path.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/locality/locality_report.hpp"

namespace parperf::locality {

class ScatterSample {
 public:
  explicit ScatterSample(std::size_t capacity) : capacity_(capacity) { points_.reserve(capacity); }

  // The point's access_index must be the number of points offered before it.
  void offer(const ScatterPoint& point) {
    if (point.access_index == next_kept_) keep(point);
  }

  // The sample, ordered by access index.
  std::vector<ScatterPoint> take();

 private:
  void keep(const ScatterPoint& point);
  double uniform();  // in (0, 1)
  void draw_next_kept();

  std::size_t capacity_;
  std::vector<ScatterPoint> points_;
  std::uint64_t next_kept_ = 0;  // access index of the next point to keep
  double weight_ = 0;            // Algorithm L's W
  std::uint64_t rng_state_ = 0x853c49e6748fea9bull;
};

}  // namespace parperf::locality
