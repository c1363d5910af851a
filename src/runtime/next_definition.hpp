// The definition of an interposed function that the program would have called without us (libc's),
// for the runtime's interposers (uninterrupted_calls.cpp, sample_signal.cpp).
#pragma once

#include <dlfcn.h>

#include <atomic>

namespace parperf::runtime {

// Resolved at the first call and cached in `cache`; a race between two first callers stores the
// same value twice.
template <class Function>
Function next_definition(std::atomic<Function>& cache, const char* name) {
  Function f = cache.load(std::memory_order_relaxed);
  if (!f) {
    f = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
    cache.store(f, std::memory_order_relaxed);
  }
  return f;
}

}  // namespace parperf::runtime
