// The thread's side of sampling without a signal a sample (perf_sample_buffer.hpp): taking its
// samples out of the kernel's buffer and recording each as the signal's handler would have recorded
// it then. Async-signal-safe (the second clock's handler runs it), no allocation, no lock.
#include <cerrno>
#include <cstring>

#include "runtime/clock.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/pending_samples.hpp"
#include "runtime/perf_sample_buffer.hpp"
#include "runtime/sample_recording.hpp"
#include "runtime/stack_walk.hpp"

namespace parperf::runtime {
namespace {

// Whether `address` lies in one of parperf's own libraries (libparperf*.so).
bool in_parperf(std::uintptr_t address) {
  const CodeRange* range = code_range_of(address);
  if (!range) return false;
  const char* path = code_module_path(range->module);
  const char* name = path;
  for (const char* p = path; *p; ++p)
    if (*p == '/') name = p + 1;
  return std::strncmp(name, "libparperf", 10) == 0;
}

// A buffered sample of parperf's own sampling: taken in its signal handler (the second clock's, which asks
// the thread to take its samples out), or while the thread took them out at an interval boundary
// (`in_take`), or in the return from a signal handler. Its innermost frames in parperf's libraries,
// and the signal's return frame, are left out, so that it counts for the code the thread was running: as a
// signal-sampled thread's handler time counts for the code its next sample interrupts. The new count, or
// `count` for another sample.
// How a buffered sample was taken in parperf's own sampling code, if it was.
enum class TakenIn { program, handler, take };

// A buffered sample of parperf's own sampling: taken in its signal handler (the second clock's,
// which asks the thread to take its samples out), in the return from a signal handler, or while the
// thread took them out at an interval boundary (`in_take`). Its innermost frames in parperf's
// libraries, and the signal's return frame, are left out of `frames` (the new count in `count`).
TakenIn without_sampling_frames(std::uintptr_t* frames, std::uint32_t& count, bool in_take) {
  std::uint32_t first = 0;
  TakenIn taken = TakenIn::take;
  if (count > 1 && (is_signal_return(frames[0]) || is_signal_return(frames[0] - 7))) {
    first = 1;  // returning from a handler
  } else {
    while (first < count && in_parperf(frames[first])) ++first;
    if (first == 0) return TakenIn::program;
    if (first < count && is_signal_return(frames[first])) {
      ++first;
      taken = TakenIn::handler;
    } else if (!in_take) {
      return TakenIn::program;  // inside parperf's API, on the program's behalf: the report names the call
    }
  }
  for (std::uint32_t i = first; i < count; ++i) frames[i - first] = frames[i];
  count -= first;
  return taken;
}

// The path a sample taken in the second clock's handler at `time_ns` counts for: what the handler
// interrupted at the take it fell in (the one that ended first at or after it), or null if unknown.
const HandlerTakes::Take* handler_take_at(const HandlerTakes* takes, std::uint64_t time_ns) {
  if (!takes) return nullptr;
  const HandlerTakes::Take& latest = takes->take[takes->latest];
  const HandlerTakes::Take& before = takes->take[takes->latest ^ 1];
  const HandlerTakes::Take& take = time_ns <= before.end_ns ? before : latest;
  return take.count > 0 ? &take : nullptr;
}

// One sample taken out of the thread's buffer (`context`: its ThreadState), recorded as the handler
// would have recorded it then: the phase the process was in at its time, the thread's interval now
// (the thread takes its samples out before its interval changes: pending_samples.hpp). A sample of
// parperf's own sampling counts for the code the thread was running, as a signal-sampled thread's
// handler time counts for the code its next sample interrupts: the path the handler interrupted (its
// own copy of the stack is mostly the handler's), or the path less parperf's frames at a boundary.
void record_buffered_sample(const BufferedSample& sample, void* context) {
  ThreadState& t = *static_cast<ThreadState*>(context);
  ThreadSampling* sampling = recording_sampling(&t);
  if (!sampling || counted_apart(t, *sampling, 1, process_phase_at(sample.time_ns))) return;
  std::uintptr_t frames[kMaxSampleFrames];
  const std::uint32_t walked = call_path(sample.context, *sampling, frames, 0, &sample.stack);
  const PerfSampleBuffer& buffer = *t.sample_buffer;
  const bool in_take = sample.time_ns >= buffer.last_take_begin && sample.time_ns <= buffer.last_take_end;
  std::uint32_t count = walked;
  const TakenIn taken = without_sampling_frames(frames, count, in_take);
  if (taken == TakenIn::handler)
    if (const HandlerTakes::Take* take = handler_take_at(sampling->handler_takes, sample.time_ns)) {
      record_sample(t, *sampling, take->frames, take->count, 1, false);
      return;
    }
  record_sample(t, *sampling, frames, count, 1, taken == TakenIn::program);  // the memo's walk, unless cut
}

}  // namespace

__attribute__((noinline)) void take_thread_samples(ThreadState& t, const ucontext_t* interrupted) noexcept {
  PerfSampleBuffer* buffer = t.sample_buffer;
  ThreadSampling* sampling = t.sampling.load(std::memory_order_acquire);
  if (!buffer || !sampling || buffer->taking) return;  // a signal inside the thread's own taking
  const int saved_errno = errno;
  buffer->taking = true;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const std::uint64_t begin = monotonic_ns();
  HandlerTakes* takes = interrupted ? sampling->handler_takes : nullptr;
  if (takes) {  // first the path the handler interrupted, on the live stack: this take's samples count for it
    takes->latest ^= 1;
    HandlerTakes::Take& take = takes->take[takes->latest];
    take.end_ns = ~std::uint64_t{0};
    take.count = call_path(*interrupted, *sampling, take.frames, 0);
  }
  take_samples(*buffer, record_buffered_sample, &t);
  buffer->last_take_begin = begin;
  buffer->last_take_end = monotonic_ns();
  if (takes) takes->take[takes->latest].end_ns = buffer->last_take_end;
  if (buffer->lost) {
    sampling->table->dropped.add(buffer->lost);
    buffer->lost = 0;
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  buffer->taking = false;
  errno = saved_errno;
}

}  // namespace parperf::runtime
