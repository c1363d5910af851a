// A thread's CPU-time sampling clock from the kernel's perf events (perf_event_open(2), the software
// event PERF_COUNT_SW_CPU_CLOCK, as `perf record -e cpu-clock` uses): a high-resolution timer on the
// thread's CPU time, not the scheduler tick, so a sample falls where the time went at any period.
// POSIX CPU-time timers fire only at the tick (250 Hz on many kernels): at 1 kHz every sample lands
// on a tick, in step with whatever the program does at that rhythm.
//
// How each overflow reaches the thread, two ways:
// - a trap (Linux 5.13 and later, attr.sigtrap): the kernel sends the thread SIGTRAP itself as it
//   returns to user space, with TRAP_PERF and our cookie (attr.sig_data) in its siginfo. The cheaper
//   way: since Linux 6.x a task_work at that return, where the descriptor's signal goes through an
//   irq_work (a self-interrupt) and the file's fasync machinery. Measured on this project's virtual
//   machine, per period of a 10 kHz clock: the clock alone 12.5 µs of the thread's CPU time, with the
//   trap 16.4, with the descriptor's signal 26.3 (bench/sampling/signal_delivery.c);
// - the descriptor's signal (O_ASYNC, F_SETSIG, F_SETOWN_EX to the thread), a real-time signal with
//   POLL_IN and the event's descriptor in its siginfo: where the kernel has no traps, or the program
//   handles SIGTRAP, or a debugger traces it (each trap would stop it there).
// Either tells our signals from anyone else's. Allowed for a thread's own user-space time where
// perf_event_paranoid <= 2 (most machines and clusters); where not, the caller keeps the POSIX timer.
//
// The descriptors are the program's resource, so: close-on-exec, moved above the numbers programs
// use (to the upper half of the soft RLIMIT_NOFILE), and at most a quarter of that limit (and 1024)
// at once: threads beyond that get the POSIX timer, so the program never runs out of descriptors
// because of us.
#pragma once

#include <signal.h>

#include <cstdint>

namespace parperf::runtime {

// The calling thread's clock, to signal it every `period_ns` of its CPU time once enabled: by a trap
// when `trap` asks for one and the kernel has them (`*trapping` says which it got), else by
// `signal`. Its descriptor, or -1 when the kernel refuses or the budget is spent. Not on a hot path
// (thread start).
int open_cpu_clock(std::uint64_t period_ns, int signal, bool trap = false, bool* trapping = nullptr) noexcept;

// A clock that signals nothing: the kernel writes each sample (its time, the thread's user registers
// and the top of its stack) into a buffer mapped from the descriptor (perf_sample_buffer.hpp). -1
// when the kernel refuses or the budget is spent. Not on a hot path (thread start).
struct BufferedSampleFormat {
  std::uint64_t registers = 0;    // perf's mask of the user registers each sample holds
  std::uint32_t stack_bytes = 0;  // the stack copied from the stack pointer up
};
int open_buffered_cpu_clock(std::uint64_t period_ns, const BufferedSampleFormat& format) noexcept;

// Whether `info` is one of these clocks' traps (a SIGTRAP with TRAP_PERF and our cookie), not a
// breakpoint, a debugger's or the program's own trap. Async-signal-safe.
bool is_cpu_clock_trap(const siginfo_t& info) noexcept;

// Starts it: after the handler can tell its signals (their descriptor published). False if it failed.
bool enable_cpu_clock(int fd) noexcept;

// Stops and closes a clock open_cpu_clock gave.
void close_cpu_clock(int fd) noexcept;

// Whether `fd` is, or was, one of these clocks: a signal that one queued may arrive after its thread
// closed it, even after the thread's state is gone, and must still not reach the program. Lock-free
// and async-signal-safe (the signal handler asks).
bool is_cpu_clock(int fd) noexcept;

}  // namespace parperf::runtime
