// The readable report of `parperf locality`: what was measured and how, the program's scores and
// figures, the functions with the most accesses, the threads, the program's stride and reuse
// histograms, and a plain-language reading of the scores of the busiest functions.
#pragma once

#include <cstddef>
#include <string>

#include "format/locality_result.hpp"

namespace parperf::report {

// The interpretation thresholds (docs/locality.md). SL: a stride-2 stream scores 0.5, which is not
// yet good (half of each cache line unused); below 0.3 few accesses are near a recent one. TL: a
// reuse within ~2^10 distinct words scores >= 0.5 with N = 2^20; a sweep over 10^6 words 0.05.
inline constexpr double kPoorSpatial = 0.3;
inline constexpr double kGoodSpatial = 0.6;
inline constexpr double kPoorTemporal = 0.2;
inline constexpr double kGoodTemporal = 0.5;

// The report; the function table lists the max_functions with the most word accesses.
std::string locality_text(const format::LocalityResult& result, std::size_t max_functions = 20);

}  // namespace parperf::report
