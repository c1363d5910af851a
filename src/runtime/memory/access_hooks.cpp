// The callbacks clang's -fsanitize-coverage=trace-loads,trace-stores inserts before every load and
// store of the instrumented code (`parperf cc` adds the flags). Each records the data address, the
// access's size and the code address that made it, by which the analysis finds the function.
#include <cstdint>

#include "runtime/memory/sampling.hpp"
#include "runtime/memory/trace_buffer.hpp"

namespace parperf::memory {
namespace {

// Not inlined into the hooks' callers (they are the program), so __builtin_return_address(1)
// would be wrong; the hooks pass their own return address.
inline void record(const void* address, std::uint8_t size, std::uint8_t flags, const void* pc) noexcept {
  ThreadBuffer* buffer = thread_buffer();  // first: the first buffer reads the sampling setting
  if (__builtin_expect(buffer == nullptr, 0)) return;
  if (sampled_out(reinterpret_cast<std::uintptr_t>(address))) {
    ++buffer->skipped;
    return;
  }
  format::MemoryAccessRecord& r = buffer->records[buffer->used];
  r.address = reinterpret_cast<std::uintptr_t>(address);
  const std::uint64_t skipped = buffer->skipped < 0xffffu ? buffer->skipped : 0xffffu;
  buffer->skipped = 0;
  r.pc = reinterpret_cast<std::uintptr_t>(pc) | (skipped << format::kSkippedShift);
  r.module = 0;  // resolved when written
  r.thread = buffer->thread;
  r.size = size;
  r.flags = flags;
  if (++buffer->used == ThreadBuffer::kCapacity) flush_buffer(*buffer);
}

}  // namespace
}  // namespace parperf::memory

#define PARPERF_ACCESS_HOOK(kind, bytes, flags)                                                         \
  extern "C" __attribute__((visibility("default"))) void __sanitizer_cov_##kind##bytes(void* address) { \
    parperf::memory::record(address, bytes, flags, __builtin_return_address(0));                        \
  }

PARPERF_ACCESS_HOOK(load, 1, 0)
PARPERF_ACCESS_HOOK(load, 2, 0)
PARPERF_ACCESS_HOOK(load, 4, 0)
PARPERF_ACCESS_HOOK(load, 8, 0)
PARPERF_ACCESS_HOOK(load, 16, 0)
PARPERF_ACCESS_HOOK(store, 1, parperf::format::kAccessStore)
PARPERF_ACCESS_HOOK(store, 2, parperf::format::kAccessStore)
PARPERF_ACCESS_HOOK(store, 4, parperf::format::kAccessStore)
PARPERF_ACCESS_HOOK(store, 8, parperf::format::kAccessStore)
PARPERF_ACCESS_HOOK(store, 16, parperf::format::kAccessStore)
