// Counts the bytes the process holds on the heap through operator new, and the most it held since the
// last reset: what a benchmark reports as the memory an analysis needs, which RSS cannot show
// (freed pages stay mapped, and the first run of a size maps what later runs reuse). Include it in
// exactly one file of a benchmark executable: it replaces the global operator new and delete.
// Counted with malloc_usable_size, so a block counts what it really takes; malloc called directly
// (C code, zstd) is not counted.
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace heap_peak {
inline std::atomic<std::size_t> g_held{0};
inline std::atomic<std::size_t> g_peak{0};

// Starts a measurement: the peak is the bytes held now.
inline void reset() { g_peak = g_held.load(); }
inline std::size_t held() { return g_held; }
inline std::size_t peak() { return g_peak; }

inline void* counted(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (!p) throw std::bad_alloc();
  const std::size_t now = g_held += malloc_usable_size(p);
  std::size_t peak = g_peak;
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return p;
}
inline void release(void* p) noexcept {
  if (!p) return;
  g_held -= malloc_usable_size(p);
  std::free(p);
}
}  // namespace heap_peak

void* operator new(std::size_t size) { return heap_peak::counted(size); }
void* operator new[](std::size_t size) { return heap_peak::counted(size); }
void operator delete(void* p) noexcept { heap_peak::release(p); }
void operator delete[](void* p) noexcept { heap_peak::release(p); }
void operator delete(void* p, std::size_t) noexcept { heap_peak::release(p); }
void operator delete[](void* p, std::size_t) noexcept { heap_peak::release(p); }
