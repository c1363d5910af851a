// A mutex for the runtime's cold paths (registration, interning) that needs nothing but libc.
//
// std::mutex reports a failed lock by throwing, which pulls libstdc++ into every measured program
// (a C or Fortran program would load it only for us, and its load-time set-up allocates a 72 KB
// emergency pool from the program's heap). pthread_mutex_lock cannot fail on a default mutex used
// correctly, so the runtime uses it directly, with std::lock_guard (header-only) as the guard.
#pragma once

#include <pthread.h>

#include <mutex>  // std::lock_guard, which works with any lock()/unlock() pair

namespace parperf::runtime {

class PlainMutex {
 public:
  constexpr PlainMutex() = default;
  PlainMutex(const PlainMutex&) = delete;
  PlainMutex& operator=(const PlainMutex&) = delete;

  void lock() noexcept { pthread_mutex_lock(&mutex_); }
  void unlock() noexcept { pthread_mutex_unlock(&mutex_); }

 private:
  pthread_mutex_t mutex_ = PTHREAD_MUTEX_INITIALIZER;
};

}  // namespace parperf::runtime
