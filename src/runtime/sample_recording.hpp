// How a sample becomes a call path in its thread's table, shared by the two ways samples arrive:
// the signal's handler (sampler.cpp), and the thread taking its buffered samples out
// (buffered_samples.cpp). Internal to the sampler; async-signal-safe, no allocation, no lock.
#pragma once

#include <ucontext.h>

#include <cstdint>

#include "runtime/sampler.hpp"
#include "runtime/stack_walk.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {

// Deep enough for real programs; the outermost frames of a deeper stack are left out.
inline constexpr std::uint32_t kMaxSampleFrames = 128;

// What the second clock's handler interrupted at its last two takes of a thread's buffered samples
// (buffered_samples.cpp), walked on the live stack: a sample the kernel took inside the handler (its
// copy of the stack then mostly the handler's own frames and the signal's, the program's cut off
// above them) counts for that path.
struct HandlerTakes {
  struct Take {
    std::uintptr_t frames[kMaxSampleFrames];
    std::uint32_t count = 0;   // 0: not known
    std::uint64_t end_ns = 0;  // when the take ended (monotonic); ~0 while it runs
  };
  Take take[2];
  std::uint32_t latest = 0;  // the index of the latest take
};

// The thread's sampling state when its samples are to be recorded now, else null.
ThreadSampling* recording_sampling(ThreadState* t);

// Whether a sample of weight `weight` taken while the process was in `process_phase` is start-up's
// or shut-down's (or this thread's own start or end): then it is counted so, and not walked.
bool counted_apart(const ThreadState& t, const ThreadSampling& sampling, std::uint64_t weight,
                   std::uint32_t process_phase);

// The process's phase at `time_ns` of the monotonic clock, by the log of its last switches.
std::uint32_t process_phase_at(std::uint64_t time_ns);

// The call path of `context` into `frames` (kMaxSampleFrames), its first `skipped` frames left out,
// with an outermost [unwinding stopped] when the walk did not reach the thread's start. `stack`:
// the thread's stack when null, or a sample's copy of its top (perf_sample_buffer.hpp).
std::uint32_t call_path(const ucontext_t& context, const ThreadSampling& sampling, std::uintptr_t* frames,
                        std::uint32_t skipped, const StackBounds* stack = nullptr);

// Adds the path to the thread's table under its current interval (and to its event trace's samples).
// `walked`: the path is the walk the memo keeps as its latest, none of its frames left out.
void record_sample(ThreadState& t, ThreadSampling& sampling, const std::uintptr_t* frames,
                   std::uint32_t count, std::uint64_t weight, bool walked);

}  // namespace parperf::runtime
