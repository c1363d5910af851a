// A decoded trace's calibration: nanoseconds per tick of its clock (the whole run's calibration
// when the trace was closed, else the estimate taken at the process's start).
#pragma once

#include <cstdint>

#include "format/trace_file.hpp"

namespace parperf::analysis {

inline double ns_per_tick(const format::TraceFile& trace) {
  const std::uint64_t tps = trace.clock && trace.clock->ticks_per_second ? trace.clock->ticks_per_second
                                                                         : trace.process.ticks_per_second;
  return tps ? 1e9 / static_cast<double>(tps) : 1.0;
}

}  // namespace parperf::analysis
