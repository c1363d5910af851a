// A thread's CPU-time sampling clock from the kernel's perf events (perf_event_open(2), the software
// event PERF_COUNT_SW_CPU_CLOCK, as `perf record -e cpu-clock` uses): a high-resolution timer on the
// thread's CPU time, not the scheduler tick, so a sample falls where the time went at any period.
// POSIX CPU-time timers fire only at the tick (250 Hz on many kernels): at 1 kHz every sample lands
// on a tick, in step with whatever the program does at that rhythm.
//
// Each overflow sends the thread itself the sampling signal (O_ASYNC, F_SETSIG, F_SETOWN_EX to the
// thread), with POLL_IN and the event's descriptor in its siginfo: that tells our signals from
// anyone else's. Allowed for a thread's own user-space time where perf_event_paranoid <= 2 (most
// machines and clusters); where not, the caller keeps the POSIX timer.
//
// The descriptors are the program's resource, so: close-on-exec, moved above the numbers programs
// use (to the upper half of the soft RLIMIT_NOFILE), and at most a quarter of that limit (and 1024)
// at once: threads beyond that get the POSIX timer, so the program never runs out of descriptors
// because of us.
#pragma once

#include <cstdint>

namespace parperf::runtime {

// The calling thread's clock, to send `signal` every `period_ns` of its CPU time once enabled; its
// descriptor, or -1 when the kernel refuses or the budget is spent. Not on a hot path (thread start).
int open_cpu_clock(std::uint64_t period_ns, int signal) noexcept;

// Starts it: after the handler can tell its signals (their descriptor published). False if it failed.
bool enable_cpu_clock(int fd) noexcept;

// Stops and closes a clock open_cpu_clock gave.
void close_cpu_clock(int fd) noexcept;

// Whether `fd` is, or was, one of these clocks: a signal that one queued may arrive after its thread
// closed it, even after the thread's state is gone, and must still not reach the program. Lock-free
// and async-signal-safe (the signal handler asks).
bool is_cpu_clock(int fd) noexcept;

}  // namespace parperf::runtime
