// Waiting for another thread from code that may run in a signal handler: no lock or condition
// variable (the waited-for thread may hold it), only nanosleep, a millisecond at a time.
#pragma once

#include <time.h>

namespace parperf::runtime {

// Sleeps while `busy()` holds, at most `limit_ms` milliseconds (then gives up: a writer that never
// finishes must not hang the process).
template <class Busy>
void wait_while(Busy busy, int limit_ms) noexcept {
  for (int waited_ms = 0; busy() && waited_ms < limit_ms; ++waited_ms) {
    timespec pause{0, 1000000};
    nanosleep(&pause, nullptr);
  }
}

}  // namespace parperf::runtime
