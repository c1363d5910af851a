// Waiting for another thread from code that may run in a signal handler: no lock or condition
// variable (the waited-for thread may hold it), only nanosleep, a millisecond at a time.
#pragma once

#include <time.h>

namespace parperf::runtime {

// Sleeps while `busy()` holds, at most `limit_ms` milliseconds (then gives up: a writer that never
// finishes must not hang the process), looking again every `step_us` microseconds.
template <class Busy>
void wait_while(Busy busy, int limit_ms, long step_us = 1000) noexcept {
  const long steps = static_cast<long>(limit_ms) * 1000 / step_us;
  for (long step = 0; busy() && step < steps; ++step) {
    timespec pause{0, step_us * 1000};
    nanosleep(&pause, nullptr);
  }
}

}  // namespace parperf::runtime
