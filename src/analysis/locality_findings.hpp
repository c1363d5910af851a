// The diagnosis rule of memory locality (findings.hpp, docs/diagnosis.md): a function that makes a
// significant share of the program's memory accesses with low spatial locality (DESIGN.md section 6)
// is a finding, with its score and how many of its accesses had no short stride.
#pragma once

#include <vector>

#include "analysis/findings.hpp"
#include "format/locality_result.hpp"

namespace parperf::analysis {

// Below this spatial locality a function's accesses are mostly far apart: a unit-stride walk scores
// 1, a stride-2 walk 0.5, and anything under 0.2 has most strides of 5 words or more (or none in the
// window): a column-major walk over a row-major array, a large-stride or an indirect access.
inline constexpr double kPoorSpatialLocality = 0.2;
// A function worth a finding makes at least this share of the program's word accesses.
inline constexpr double kLocalityAccessShare = 0.05;

// The functions of `result` with poor spatial locality, most word accesses first. No time estimate
// is possible from the accesses alone: estimated_gain stays 0 and `share` is the access share.
std::vector<Finding> locality_findings(const format::LocalityResult& result);

}  // namespace parperf::analysis
