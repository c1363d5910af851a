// The speedup plot of `parperf predict --svg/--png`, for the first group of runs: measured speedups
// with the spread of their repetitions, the chosen model's curve with its band, Amdahl's and
// Gustafson's curves and the ideal line, over processors on a log2 axis.
#pragma once

#include <string>

#include "analysis/scaling/scaling_study.hpp"

namespace parperf::report {

std::string prediction_svg(const analysis::scaling::ScalingStudy& study);

}  // namespace parperf::report
