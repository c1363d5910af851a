// The interval boundaries' part in sampling without a signal a sample (perf_sample_buffer.hpp): a
// sample the kernel wrote while the thread was in an interval is recorded under that interval, so
// the thread takes its waiting samples out before its interval stack changes.
#pragma once

#include <ucontext.h>

#include "runtime/perf_sample_buffer.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {

// Records the calling thread's buffered samples under its current interval (buffered_samples.cpp).
// `interrupted`: the program's context, when the second clock's signal asks for them.
void take_thread_samples(ThreadState& t, const ucontext_t* interrupted = nullptr) noexcept;

// Before the calling thread's interval stack changes: a null test when the thread is not sampled
// into a buffer, two loads and a compare when no sample is waiting.
inline void take_pending_samples(ThreadState& t) noexcept {
  if (PerfSampleBuffer* buffer = t.sample_buffer; __builtin_expect(buffer != nullptr, 0) && buffer->pending())
    take_thread_samples(t);
}

}  // namespace parperf::runtime
