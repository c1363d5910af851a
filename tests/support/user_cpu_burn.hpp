// Burning a thread's CPU time in user space, for tests of CPU-time sampling: the perf-event clock
// counts user time only, so a loop that did nothing but read the thread's CPU clock (a system call)
// would be sampled a few times a second, not at the rate asked for.
#pragma once

#include <time.h>

#include <cstdint>

namespace parperf::testing {

inline std::uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline void burn_user_cpu_ms(int ms) {
  const std::uint64_t end = thread_cpu_ns() + static_cast<std::uint64_t>(ms) * 1000000u;
  volatile double x = 0;
  while (thread_cpu_ns() < end)
    for (int i = 0; i < 20000; ++i) x = x + i * 0.5;
}

}  // namespace parperf::testing
