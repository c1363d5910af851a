// An interval's diagnosis (analysis/findings.hpp) in one plain-language line: its largest loss, in
// the user's terms, then the notes that apply.
#pragma once

#include <string>
#include <vector>

#include "analysis/findings.hpp"

namespace parperf::report {

// "idle time is 33% of total: processor 0 finishes 120 ms before processor 1 (load imbalance)"
std::string diagnosis_text(const std::vector<analysis::Finding>& diagnosis);

}  // namespace parperf::report
