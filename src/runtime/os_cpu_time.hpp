// Operating-system CPU time (user and system) per interval.
//
// getrusage(RUSAGE_THREAD) is a system call, far too slow for every interval boundary. It is read at
// a user-interval boundary only when at least PARPERF_CPU_SAMPLE_US has passed since the thread's
// last read, and the CPU time since that read is charged to the node that was innermost just before
// the boundary, as *self* time (the analysis sums subtrees). Between two reads every boundary lies
// within the sampling spacing of the first read, so the misattribution per read is bounded by that
// spacing (100 us by default), while the hot path pays one comparison.
#pragma once

#include <cstdint>

#include "runtime/runtime_state.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {

// Reads the thread's CPU times and charges the delta to `node` (may be null: then just re-bases).
void sample_os_cpu_time(ThreadState& thread, std::uint64_t now, Node* node) noexcept;

// CPU time (user + sys) of any thread of this process so far; 0 if it cannot be read.
// Async-signal-safe: the profile writer uses it for threads still running, whose CPU time since
// their last boundary read would otherwise be missing.
std::uint64_t thread_cpu_ns(std::int64_t os_tid) noexcept;

inline void maybe_sample_os_cpu_time(ThreadState& thread, std::uint64_t now, Node* node) noexcept {
  if (__builtin_expect(now - thread.last_cpu_sample_ticks >= cpu_sample_ticks(), 0))
    sample_os_cpu_time(thread, now, node);
}

}  // namespace parperf::runtime
