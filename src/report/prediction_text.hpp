// `parperf predict` as text: per group of runs the measured and fitted times, every model with its
// error, the prediction table, the count where efficiency falls below the threshold, the best
// count, the losses that grow and the intervals whose cost grows fastest, and the warnings.
#pragma once

#include <string>

#include "analysis/scaling/scaling_study.hpp"

namespace parperf::report {

std::string prediction_text(const analysis::scaling::ScalingStudy& study);

}  // namespace parperf::report
