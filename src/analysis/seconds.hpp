// Nanoseconds as the analysis reports them: seconds, by division rather than multiplication by
// 1e-9, so that whole milliseconds come out exact (0.3, not 0.30000000000000004).
#pragma once

#include <cstdint>

namespace parperf::analysis {

inline double seconds(std::uint64_t ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace parperf::analysis
