// Call-path sampling (PARPERF_SAMPLE_HZ, `parperf run --sample`): each thread has a clock of its own
// CPU time (the kernel's perf-event CPU clock where it allows it, perf_event_clock.hpp, else a POSIX
// timer; or, with PARPERF_SAMPLE_CLOCK=wall, a timer on the monotonic clock, so that waiting threads
// are sampled too) that sends the thread kSampleSignal; the handler walks the interrupted
// stack (stack_walk.hpp) and adds the path to the thread's call-path table (call_path_table.hpp)
// under the interval the thread is in. The intervals' own measurements are not touched.
//
// The signal is SIGRTMIN+7, or the next real-time signal whose disposition is still the default
// when the runtime starts (docs/runtime.md); a perf-event clock signals by a trap (SIGTRAP) where
// it can, the cheaper delivery (perf_event_clock.hpp). A signal of either number that is not our
// clocks' gets the program's disposition (sample_signal.hpp): its handler if it installed one, else
// the default (the process ends, as it would have without us).
#pragma once

#include <ctime>

#include "runtime/call_path_table.hpp"
#include "runtime/collector_api.h"
#include "runtime/sample_ring.hpp"
#include "runtime/stack_walk.hpp"

namespace parperf::runtime {

struct ThreadState;
struct PerfSampleBuffer;
struct HandlerTakes;

// A thread's sampling state, taken in private memory when the thread registers.
struct ThreadSampling {
  CallPathTable* table = nullptr;
  // With the event trace on: each sample's time, leaf node and weight, for the trace writer
  // (sample_ring.hpp). Null otherwise: the handler then costs what it cost before traces had samples.
  SampleRing* ring = nullptr;
  StackBounds stack;
  UnwindCache* unwind = nullptr;  // the recipes of the code the thread's walks went through (null: none kept)
  WalkMemo* memo = nullptr;  // the thread's last walk, whose outer frames the next one reuses (null: none)
  timer_t timer{};           // the POSIX timer, when clock_fd is -1 and buffer null
  // The kernel's buffer of samples, when the thread is sampled without a signal a sample
  // (perf_sample_buffer.hpp, PARPERF_SAMPLE_SOURCE=perf-buffer); clock_fd is -1 then.
  PerfSampleBuffer* buffer = nullptr;
  HandlerTakes* handler_takes = nullptr;  // with the buffer: sample_recording.hpp
  int clock_fd = -1;  // the perf-event CPU clock (perf_event_clock.hpp), when the kernel allows it
};

// Which clocks sampled the threads so far (the profile's call_paths header says it).
enum class SampleSources { none, timer, perf_event, both };
SampleSources sample_sources() noexcept;

// Installs the handler when PARPERF_SAMPLE_HZ asks for samples (at initialisation, once).
void start_sampling() noexcept;

// True when sampling runs: threads get timers as they register.
bool sampling_active() noexcept;

// The signal the sampling timers send while sampling runs (sample_signal.hpp), else 0.
int sampler_signal() noexcept;

// SIGTRAP while the perf-event clocks may signal by a trap (perf_event_clock.hpp), else 0: its
// disposition is the program's then, kept as the sampling signal's (sample_signal.hpp).
int sampler_trap_signal() noexcept;

// The calling thread (`t`, registered and published) starts / stops being sampled.
void start_thread_sampling(ThreadState& t) noexcept;
void stop_thread_sampling(ThreadState& t) noexcept;

// From now on samples go no more into the event trace: the final profile is being written, and a
// sample it does not count must not be in the trace either (its node may not even be in it).
void stop_tracing_samples() noexcept;

// The process enters or leaves its programming model's start-up or shut-down
// (PARPERF_PROCESS_RUNNING, _STARTING_UP, _SHUTTING_DOWN: parperf_collector_process_phase). Until it
// leaves, the samples of every sampled thread are counted apart (the model's own threads are not
// sampled at all: thread_start_hook.cpp). Each switch is also logged with its monotonic time, for
// samples taken out of a buffer later (process_phase_at). Async-signal-safe: a clock read (vDSO) and
// a few relaxed stores, a few times a run.
void set_process_phase(std::uint32_t phase) noexcept;

// What a sample is counted as: parperf's own start or end on the sampled thread (`thread_phase`,
// ThreadState::process_phase) first, else what the process is doing.
constexpr std::uint32_t sample_phase(std::uint32_t thread_phase, std::uint32_t process_phase) noexcept {
  return thread_phase != PARPERF_PROCESS_RUNNING ? thread_phase : process_phase;
}

// The timers' period in nanoseconds (0 when not sampling).
std::uint64_t sample_period_ns() noexcept;

// Some blocking calls return early with EINTR, or return at all (pause, sigsuspend), when any
// handled signal arrives, SA_RESTART or not (signal(7)): sleeps, poll, select, epoll_wait and more.
// A sample must not cut them short, so uninterrupted_calls.cpp blocks the sample signal in the
// calling thread while one runs; the samples that fall due meanwhile are not lost: the timer keeps
// one signal pending and counts the others as its overrun, and they are recorded, with that weight,
// at the call when it returns.
//
// The signal to block around such a call when the calling thread is sampled, else 0.
int held_sample_signal() noexcept;

// After such a call, the signal still blocked: takes the pending sample, if any, and records it with
// its weight at the calling wrapper: `frame` is its __builtin_frame_address(0), the path's innermost
// frame the instruction it returns to. errno is kept.
void record_held_samples(std::uintptr_t frame) noexcept;

}  // namespace parperf::runtime
