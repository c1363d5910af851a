// A one-line plain-language diagnosis of an interval: its largest loss, in the user's terms.
#pragma once

#include <string>

#include "analysis/characteristics.hpp"

namespace parperf::report {

// "idle time is 33% of total: processor 0 finishes 120 ms before processor 1 (load imbalance)"
std::string diagnose(const analysis::Characteristics& c, const analysis::Comparative& comparative);

}  // namespace parperf::report
