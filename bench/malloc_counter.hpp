// Counts the calls of malloc per thread, for benchmarks that must show a hot path allocates nothing.
// Include it in exactly one file of a benchmark executable: it interposes malloc for the whole
// process (the parperf libraries included), per thread so that each benchmark thread counts only
// what its own timed loop allocates.
#pragma once

#include <cstddef>

extern "C" void* __libc_malloc(std::size_t);
namespace {
thread_local long t_mallocs = 0;
}
extern "C" void* malloc(std::size_t size) {
  ++t_mallocs;
  return __libc_malloc(size);
}
