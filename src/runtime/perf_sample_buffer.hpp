// A thread's CPU-clock samples taken without a signal each (PARPERF_SAMPLE_SOURCE=perf-buffer): the
// kernel writes every sample, its time, the thread's user registers and the top of its stack
// (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER, as `perf record --call-graph dwarf` asks), into a
// ring buffer mapped from the clock's descriptor, and signals nothing. The thread takes the samples
// out itself:
// - at each of its interval boundaries (pending_samples.hpp: a load and a compare when none is
//   waiting), so that a sample taken in an interval is recorded while the thread is still in it;
// - at the signal of a second CPU clock every kSamplesBetweenTakes periods (sampler.cpp), for a
//   thread that stays long in one interval: one signal for that many samples;
// - when it stops sampling (its end) and when the process writes its profile.
// Each sample's stack is walked from the copy where it lies in the buffer (stack_walk.hpp's
// StackBounds::offset): the walk computes with the thread's own addresses and registers and reads
// each word through the offset to the copy, so the thread's walk memo holds across samples. Frames
// beyond the copied bytes are not known: such a walk ends there, counted as not whole.
//
// Why: a signal's delivery costs the sampled thread 3 to 20 µs on a virtual machine (more in
// memory-bound code than the handler itself: bench/sampling/overhead.sh), the kernel's copy of
// 16 KiB about one.
//
// No allocation, lock or system call when samples are taken out (async-signal-safe): the buffer and
// the thread's copy are mapped when the thread starts sampling.
#pragma once

#include <ucontext.h>

#include <cstddef>
#include <cstdint>

#include "runtime/stack_walk.hpp"

namespace parperf::runtime {

struct PerfSampleBuffer {
  void* mapping = nullptr;              // the kernel's control page, then its data pages
  const std::uint64_t* head = nullptr;  // in the control page: how many bytes the kernel wrote
  std::size_t mapping_bytes = 0;
  const unsigned char* data = nullptr;
  std::uint64_t data_bytes = 0;     // a power of two
  std::uint64_t tail = 0;           // what was taken out so far, as the kernel counts the bytes written
  std::uint64_t lost = 0;           // samples the kernel could not write: the buffer was full
  unsigned char* record = nullptr;  // a record that wraps around the buffer's end, made whole
  std::size_t record_bytes = 0;     // its room: the largest record
  int fd = -1;
  volatile bool taking = false;  // the thread is taking samples out: its signal handler leaves them
  // When the thread last took samples out (monotonic ns): the kernel went on sampling it meanwhile,
  // and those samples, taken out the next time, are of parperf's own code (sampler.cpp).
  std::uint64_t last_take_begin = 0, last_take_end = 0;

  // Whether the kernel wrote samples that were not taken out. Two loads.
  bool pending() const noexcept { return __atomic_load_n(head, __ATOMIC_RELAXED) != tail; }
};

// One sample as the walk reads it: the registers in `context` (only its general registers are set)
// and the copied stack's bounds, with the offset to the copy.
struct BufferedSample {
  std::uint64_t time_ns = 0;  // CLOCK_MONOTONIC
  ucontext_t context;
  StackBounds stack;
};

// Whether this machine's kernel and build can sample into a buffer at all (x86-64 Linux).
bool buffered_sampling_supported() noexcept;

// The periods between two takes by the timer: the buffer holds twice as many samples and more.
inline constexpr std::uint32_t kSamplesBetweenTakes = 8;
// The highest rate sampled into a buffer: where the kernel gives no second perf event, a POSIX
// CPU-time timer asks for the takes, and it fires only at the scheduler's tick (every 4 ms at
// 250 Hz): at most 8 + 4 ms x this rate samples then wait between two takes, within the buffer's
// 31. Faster rates get a signal a sample.
inline constexpr std::uint32_t kMostBufferedHz = 2000;

// The stack copied a sample (PARPERF_SAMPLE_STACK): perf's default, 8 KiB, holds the frames of
// most programs with the libraries' below them; a record's size is 16 bits.
inline constexpr std::uint32_t kDefaultStackBytes = 8192;
inline constexpr std::uint32_t kLeastStackBytes = 1024;
inline constexpr std::uint32_t kMostStackBytes = 61440;

// Opens the calling thread's CPU clock (perf_event_clock.hpp) at `period_ns`, writing into a new
// buffer samples with `stack_bytes` of stack. False, with nothing held, when the kernel refuses (the
// clock, or the locked memory of its buffer: perf_event_mlock_kb): the caller samples by signals.
bool open_sample_buffer(PerfSampleBuffer& buffer, std::uint64_t period_ns,
                        std::uint32_t stack_bytes) noexcept;

// Starts the clock.
bool enable_sample_buffer(PerfSampleBuffer& buffer) noexcept;

// Every sample written since the last call, in order, to `each(sample, context)`; then their room is
// the kernel's again. Samples the kernel dropped are added to `lost`. Async-signal-safe.
void take_samples(PerfSampleBuffer& buffer, void (*each)(const BufferedSample&, void*),
                  void* context) noexcept;

// Stops the clock and unmaps the buffer: nothing is taken out after.
void close_sample_buffer(PerfSampleBuffer& buffer) noexcept;

}  // namespace parperf::runtime
