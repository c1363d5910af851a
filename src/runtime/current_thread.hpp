// The calling thread's measurement state, as the hot paths reach it: one initial-exec TLS load.
// ThreadState's contents are the core's (thread_state.hpp); a collector holds it as a handle.
#pragma once

namespace parperf::runtime {

struct ThreadState;

namespace thread_detail {
// initial-exec: one %fs-relative load on the hot path, even from a shared library.
// constinit: no dynamic initialisation, so no TLS wrapper call on access.
extern constinit thread_local ThreadState* current __attribute__((tls_model("initial-exec")));
}  // namespace thread_detail

// Registers the calling thread on its first call; null when the runtime is not measuring or the
// thread has already exited.
ThreadState* register_current_thread() noexcept;

inline ThreadState* current_thread() noexcept {
  ThreadState* t = thread_detail::current;
  if (__builtin_expect(t != nullptr, 1)) return t;
  return register_current_thread();
}

}  // namespace parperf::runtime
