// The input of a scaling model: one quantity (a program's time, an interval's, a lost-time
// component) measured at several processor counts, each count with its repetitions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace parperf::analysis::scaling {

struct ScalingPoint {
  double processors = 1;
  std::vector<double> times;  // the repetitions, in seconds (or processor-seconds for a loss)

  // The median is what the models fit: one slow repetition (a noisy neighbour) moves it least.
  double median() const {
    if (times.empty()) return 0;
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t middle = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
  double min() const { return times.empty() ? 0 : *std::min_element(times.begin(), times.end()); }
  double max() const { return times.empty() ? 0 : *std::max_element(times.begin(), times.end()); }
  // (max − min) / median: how much the repetitions disagree; 0 for a single one.
  double spread() const {
    const double m = median();
    return m > 0 ? (max() - min()) / m : 0;
  }
};

struct ScalingSeries {
  std::vector<ScalingPoint> points;  // ascending processors, each count once
};

}  // namespace parperf::analysis::scaling
