// The trace's call-path samples as the timeline writers get them, after the slices: the analysis'
// samples (trace/trace_samples.hpp) and the timeline's time shift, so that a sample lands on its
// thread's track at the time the slices around it give.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "analysis/trace/trace_samples.hpp"

namespace parperf::exports {

struct TimelineSamples {
  const analysis::TraceSamples& samples;
  double origin_ns = 0;  // subtracted from corrected times, as for the slices (timeline_slices.hpp)

  // A sample's timestamp on the timeline (ns, from 0).
  std::uint64_t timestamp(const analysis::TraceSampleEntry& s) const {
    return static_cast<std::uint64_t>(std::llround(std::max(0.0, s.time_ns - origin_ns)));
  }
};

}  // namespace parperf::exports
