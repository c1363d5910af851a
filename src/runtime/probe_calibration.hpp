// What parperf's own probes cost on a thread, measured when the thread registers, so that the
// analysis can take them out of fine-grained intervals and loop iterations
// (src/analysis/probe_compensation.hpp says how).
//
// Measured on the thread's own state before it is published: a calibration interval is entered and
// left, and marked, a few dozen times under the thread's root with the same code as every interval,
// then unlinked again, so the profile never shows it and nothing is locked or written. The minimum
// over the rounds is kept: the cost when nothing interrupts, which is what a probe adds in a tight
// loop (interruptions are the program's time, not the probe's). A thread that registers while
// recording is off is not calibrated (its costs stay 0, and the analysis leaves its times as they are).
#pragma once

#include <cstdint>

namespace parperf::runtime {

struct ThreadState;

struct ProbeCostTicks {
  std::uint64_t entry = 0;   // one interval begin and end, as the enclosing interval sees it
  std::uint64_t inside = 0;  // the part of it between the entry's own time stamps
  std::uint64_t mark = 0;    // one loop iteration mark
};

// Calibrates on `t`, which must not be published yet (no other thread or writer can see it).
ProbeCostTicks calibrate_probes(ThreadState& t) noexcept;

}  // namespace parperf::runtime
