// Call-path sampling (PARPERF_SAMPLE_HZ, `parperf run --sample`): each thread has a timer on its
// own CPU-time clock (or, with PARPERF_SAMPLE_CLOCK=wall, on the monotonic clock, so that waiting
// threads are sampled too) that sends the thread kSampleSignal; the handler walks the interrupted
// stack (stack_walk.hpp) and adds the path to the thread's call-path table (call_path_table.hpp)
// under the interval the thread is in. The intervals' own measurements are not touched.
//
// The signal is SIGRTMIN+7 (docs/runtime.md). Sampling starts only when the program left that
// signal's disposition at the default when the runtime started; otherwise one warning says so and
// nothing is sampled. A signal of that number that is not our timer's gets the default disposition
// (the process ends, as it would have without us).
#pragma once

#include <ctime>

#include "runtime/call_path_table.hpp"
#include "runtime/sample_ring.hpp"
#include "runtime/stack_walk.hpp"

namespace parperf::runtime {

struct ThreadState;

// A thread's sampling state, taken in private memory when the thread registers.
struct ThreadSampling {
  CallPathTable* table = nullptr;
  // With the event trace on: each sample's time, leaf node and weight, for the trace writer
  // (sample_ring.hpp). Null otherwise: the handler then costs what it cost before traces had samples.
  SampleRing* ring = nullptr;
  StackBounds stack;
  timer_t timer{};
};

// Installs the handler when PARPERF_SAMPLE_HZ asks for samples (at initialisation, once).
void start_sampling() noexcept;

// True when sampling runs: threads get timers as they register.
bool sampling_active() noexcept;

// The calling thread (`t`, registered and published) starts / stops being sampled.
void start_thread_sampling(ThreadState& t) noexcept;
void stop_thread_sampling(ThreadState& t) noexcept;

// From now on samples go no more into the event trace: the final profile is being written, and a
// sample it does not count must not be in the trace either (its node may not even be in it).
void stop_tracing_samples() noexcept;

// The timers' period in nanoseconds (0 when not sampling).
std::uint64_t sample_period_ns() noexcept;

}  // namespace parperf::runtime
