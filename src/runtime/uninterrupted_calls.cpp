// Keeps samples from cutting the program's waits short, by interposing the calls that any handled
// signal interrupts whatever SA_RESTART says (signal(7)): the sleeps, poll, select, epoll_wait,
// sigtimedwait, the System V semaphore and message waits fail with EINTR, and pause and sigsuspend
// return. A wall-clock sample arrives in the middle of every wait longer than its period (a CPU-time
// one only in the moment a thread starts waiting): without this, `sleep(1)` under
// `--sample-clock=wall` would return after a millisecond, and a program that does not retry would
// run differently measured.
//
// While a sampled thread is in one of these calls, the sample signal is blocked in that thread
// (sampler.hpp: held_sample_signal, record_held_samples). The timer keeps one signal pending and
// counts the periods that expire meanwhile as its overrun; when the call returns, that one sample is
// taken at the call with the overrun as its weight, so a wall-clock profile still shows the time
// spent waiting, in the function the program called (this wrapper's name) and under its callers.
// Signals of the program's own interrupt these calls exactly as before: only ours is held.
//
// Calls that cannot wait (a zero timeout, IPC_NOWAIT) and threads that are not sampled pass
// straight through: one load and a test. Not in sanitizer builds, whose runtimes intercept these
// calls themselves (see thread_start_hook.cpp).
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/msg.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "runtime/next_definition.hpp"
#include "runtime/sampler.hpp"
#include "runtime/sanitizer_build.hpp"

#if !defined(PARPERF_SANITIZED)

namespace parperf::runtime {
namespace {

// The sample signal blocked in the calling thread for the guard's life, when the thread is sampled.
// `frame` is the wrapper's own (__builtin_frame_address(0)): the held samples are recorded there.
class SamplesHeld {
 public:
  explicit SamplesHeld(void* frame) noexcept : frame_(reinterpret_cast<std::uintptr_t>(frame)) {
    signal_ = held_sample_signal();
    if (signal_ == 0) return;
    sigset_t ours;
    sigemptyset(&ours);
    sigaddset(&ours, signal_);
    pthread_sigmask(SIG_BLOCK, &ours, &previous_);
    if (sigismember(&previous_, signal_)) signal_ = 0;  // the program blocks it itself: nothing to undo
  }
  ~SamplesHeld() {
    if (signal_ == 0) return;
    const int saved_errno = errno;  // the call's result
    record_held_samples(frame_);
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    errno = saved_errno;
  }
  SamplesHeld(const SamplesHeld&) = delete;
  SamplesHeld& operator=(const SamplesHeld&) = delete;

  // The mask a call installs for its wait (ppoll, pselect, epoll_pwait, sigsuspend), with the sample
  // signal added to it in `copy` when it is held; null stays null (the thread's mask, which holds it).
  const sigset_t* holding_in(const sigset_t* mask, sigset_t& copy) const noexcept {
    if (signal_ == 0 || mask == nullptr) return mask;
    copy = *mask;
    sigaddset(&copy, signal_);
    return &copy;
  }

 private:
  std::uintptr_t frame_;
  int signal_ = 0;
  sigset_t previous_{};
};

bool is_zero(const timespec* t) { return t && t->tv_sec == 0 && t->tv_nsec == 0; }
bool is_zero(const timeval* t) { return t && t->tv_sec == 0 && t->tv_usec == 0; }

}  // namespace
}  // namespace parperf::runtime

using parperf::runtime::is_zero;
using parperf::runtime::next_definition;
using parperf::runtime::SamplesHeld;

#define PARPERF_INTERPOSED extern "C" __attribute__((visibility("default")))

PARPERF_INTERPOSED unsigned int sleep(unsigned int seconds) {
  static constinit std::atomic<unsigned int (*)(unsigned int)> next{nullptr};
  const auto call = next_definition(next, "sleep");
  const SamplesHeld held(__builtin_frame_address(0));
  return call(seconds);
}

PARPERF_INTERPOSED int usleep(useconds_t microseconds) {
  static constinit std::atomic<int (*)(useconds_t)> next{nullptr};
  const auto call = next_definition(next, "usleep");
  const SamplesHeld held(__builtin_frame_address(0));
  return call(microseconds);
}

PARPERF_INTERPOSED int nanosleep(const timespec* request, timespec* remaining) {
  static constinit std::atomic<int (*)(const timespec*, timespec*)> next{nullptr};
  const auto call = next_definition(next, "nanosleep");
  const SamplesHeld held(__builtin_frame_address(0));
  return call(request, remaining);
}

PARPERF_INTERPOSED int clock_nanosleep(clockid_t clock, int flags, const timespec* request,
                                       timespec* remaining) {
  static constinit std::atomic<int (*)(clockid_t, int, const timespec*, timespec*)> next{nullptr};
  const auto call = next_definition(next, "clock_nanosleep");
  const SamplesHeld held(__builtin_frame_address(0));
  return call(clock, flags, request, remaining);
}

PARPERF_INTERPOSED int pause() {
  static constinit std::atomic<int (*)()> next{nullptr};
  const auto call = next_definition(next, "pause");
  const SamplesHeld held(__builtin_frame_address(0));
  return call();
}

PARPERF_INTERPOSED int sigsuspend(const sigset_t* mask) {
  static constinit std::atomic<int (*)(const sigset_t*)> next{nullptr};
  const auto call = next_definition(next, "sigsuspend");
  const SamplesHeld held(__builtin_frame_address(0));
  sigset_t copy;
  return call(held.holding_in(mask, copy));
}

PARPERF_INTERPOSED int poll(pollfd* fds, nfds_t count, int timeout_ms) {
  static constinit std::atomic<int (*)(pollfd*, nfds_t, int)> next{nullptr};
  const auto call = next_definition(next, "poll");
  if (timeout_ms == 0) return call(fds, count, timeout_ms);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(fds, count, timeout_ms);
}

PARPERF_INTERPOSED int ppoll(pollfd* fds, nfds_t count, const timespec* timeout, const sigset_t* mask) {
  static constinit std::atomic<int (*)(pollfd*, nfds_t, const timespec*, const sigset_t*)> next{nullptr};
  const auto call = next_definition(next, "ppoll");
  if (is_zero(timeout)) return call(fds, count, timeout, mask);
  const SamplesHeld held(__builtin_frame_address(0));
  sigset_t copy;
  return call(fds, count, timeout, held.holding_in(mask, copy));
}

PARPERF_INTERPOSED int select(int count, fd_set* read, fd_set* write, fd_set* except, timeval* timeout) {
  static constinit std::atomic<int (*)(int, fd_set*, fd_set*, fd_set*, timeval*)> next{nullptr};
  const auto call = next_definition(next, "select");
  if (is_zero(timeout)) return call(count, read, write, except, timeout);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(count, read, write, except, timeout);
}

PARPERF_INTERPOSED int pselect(int count, fd_set* read, fd_set* write, fd_set* except,
                               const timespec* timeout, const sigset_t* mask) {
  static constinit std::atomic<int (*)(int, fd_set*, fd_set*, fd_set*, const timespec*, const sigset_t*)>
      next{nullptr};
  const auto call = next_definition(next, "pselect");
  if (is_zero(timeout)) return call(count, read, write, except, timeout, mask);
  const SamplesHeld held(__builtin_frame_address(0));
  sigset_t copy;
  return call(count, read, write, except, timeout, held.holding_in(mask, copy));
}

PARPERF_INTERPOSED int epoll_wait(int epoll, epoll_event* events, int capacity, int timeout_ms) {
  static constinit std::atomic<int (*)(int, epoll_event*, int, int)> next{nullptr};
  const auto call = next_definition(next, "epoll_wait");
  if (timeout_ms == 0) return call(epoll, events, capacity, timeout_ms);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(epoll, events, capacity, timeout_ms);
}

PARPERF_INTERPOSED int epoll_pwait(int epoll, epoll_event* events, int capacity, int timeout_ms,
                                   const sigset_t* mask) {
  static constinit std::atomic<int (*)(int, epoll_event*, int, int, const sigset_t*)> next{nullptr};
  const auto call = next_definition(next, "epoll_pwait");
  if (timeout_ms == 0) return call(epoll, events, capacity, timeout_ms, mask);
  const SamplesHeld held(__builtin_frame_address(0));
  sigset_t copy;
  return call(epoll, events, capacity, timeout_ms, held.holding_in(mask, copy));
}

PARPERF_INTERPOSED int sigtimedwait(const sigset_t* signals, siginfo_t* info, const timespec* timeout) {
  static constinit std::atomic<int (*)(const sigset_t*, siginfo_t*, const timespec*)> next{nullptr};
  const auto call = next_definition(next, "sigtimedwait");
  if (is_zero(timeout)) return call(signals, info, timeout);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(signals, info, timeout);
}

PARPERF_INTERPOSED int sigwaitinfo(const sigset_t* signals, siginfo_t* info) {
  static constinit std::atomic<int (*)(const sigset_t*, siginfo_t*)> next{nullptr};
  const auto call = next_definition(next, "sigwaitinfo");
  const SamplesHeld held(__builtin_frame_address(0));
  return call(signals, info);
}

PARPERF_INTERPOSED int semop(int set, sembuf* operations, size_t count) {
  static constinit std::atomic<int (*)(int, sembuf*, size_t)> next{nullptr};
  const auto call = next_definition(next, "semop");
  const SamplesHeld held(__builtin_frame_address(0));
  return call(set, operations, count);
}

PARPERF_INTERPOSED int semtimedop(int set, sembuf* operations, size_t count, const timespec* timeout) {
  static constinit std::atomic<int (*)(int, sembuf*, size_t, const timespec*)> next{nullptr};
  const auto call = next_definition(next, "semtimedop");
  if (is_zero(timeout)) return call(set, operations, count, timeout);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(set, operations, count, timeout);
}

PARPERF_INTERPOSED ssize_t msgrcv(int queue, void* message, size_t size, long type, int flags) {
  static constinit std::atomic<ssize_t (*)(int, void*, size_t, long, int)> next{nullptr};
  const auto call = next_definition(next, "msgrcv");
  if (flags & IPC_NOWAIT) return call(queue, message, size, type, flags);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(queue, message, size, type, flags);
}

PARPERF_INTERPOSED int msgsnd(int queue, const void* message, size_t size, int flags) {
  static constinit std::atomic<int (*)(int, const void*, size_t, int)> next{nullptr};
  const auto call = next_definition(next, "msgsnd");
  if (flags & IPC_NOWAIT) return call(queue, message, size, flags);
  const SamplesHeld held(__builtin_frame_address(0));
  return call(queue, message, size, flags);
}

#endif  // no sanitizer
