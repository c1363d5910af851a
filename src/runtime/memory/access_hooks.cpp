// The callbacks clang's -fsanitize-coverage=trace-loads,trace-stores inserts before every load and
// store of the instrumented code (`parperf cc` adds the flags). Each records the data address, the
// access's size and the code address that made it, by which the analysis finds the function.
//
// The hooks run billions of times, so their common path is kept frameless: it only reads the
// thread's buffer and writes one record, and every rare case (the thread's first access, a full
// buffer) is a tail call, so the compiler saves no registers and sets up no stack frame.
#include <cstdint>

#include "runtime/memory/sampling.hpp"
#include "runtime/memory/trace_buffer.hpp"

namespace parperf::memory {
namespace {

inline void record_into(ThreadBuffer& buffer, const void* address, std::uint8_t size, std::uint8_t flags,
                        const void* pc) noexcept {
  const std::uint32_t threshold = buffer.sample_threshold;
  if (__builtin_expect(threshold < kSampleModulus, 0) &&
      sampled_out(reinterpret_cast<std::uintptr_t>(address), threshold)) {
    ++buffer.skipped;
    return;
  }
  append_access(buffer, address, size, flags, pc);
}

// The thread's first access: makes its buffer (which reads the sampling setting) and records.
[[gnu::noinline]] void record_first(const void* address, std::uint8_t size, std::uint8_t flags,
                                    const void* pc) noexcept {
  if (ThreadBuffer* buffer = create_thread_buffer()) record_into(*buffer, address, size, flags, pc);
}

// Not inlined into the hooks' callers (they are the program), so __builtin_return_address(1)
// would be wrong; the hooks pass their own return address.
inline void record(const void* address, std::uint8_t size, std::uint8_t flags, const void* pc) noexcept {
  ThreadBuffer* buffer = t_buffer;
  if (__builtin_expect(buffer == nullptr, 0)) return record_first(address, size, flags, pc);
  record_into(*buffer, address, size, flags, pc);
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
