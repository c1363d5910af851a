// The callbacks clang's -fsanitize-coverage=trace-loads,trace-stores inserts before every load and
// store of the instrumented code (`parperf cc` adds the flags). Each records the data address, the
// access's size and the code address that made it, by which the analysis finds the function.
//
// The hooks run billions of times, so their common path is kept frameless: it only reads the
// thread's buffer and writes one record, and every rare case (the thread's first access, a full
// buffer) is a tail call, so the compiler saves no registers and sets up no stack frame.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "runtime/memory/sampling.hpp"
#include "runtime/memory/trace_buffer.hpp"

namespace parperf::memory {
namespace {

// The record's last 8 bytes (module, thread, size, flags) as one store: module 0 (resolved when
// the buffer is written), then the thread, the size and the flags.
inline std::uint64_t record_tail(std::uint16_t thread, std::uint8_t size, std::uint8_t flags) noexcept {
  return (std::uint64_t{thread} << 32) | (std::uint64_t{size} << 48) | (std::uint64_t{flags} << 56);
}
static_assert(offsetof(format::MemoryAccessRecord, module) == 16 &&
              offsetof(format::MemoryAccessRecord, thread) == 20 &&
              offsetof(format::MemoryAccessRecord, size) == 22 &&
              offsetof(format::MemoryAccessRecord, flags) == 23 && sizeof(format::MemoryAccessRecord) == 24);

inline void record_into(ThreadBuffer& buffer, const void* address, std::uint8_t size, std::uint8_t flags,
                        const void* pc) noexcept {
  const std::uint32_t threshold = buffer.sample_threshold;
  if (__builtin_expect(threshold < kSampleModulus, 0) &&
      sampled_out(reinterpret_cast<std::uintptr_t>(address), threshold)) {
    ++buffer.skipped;
    return;
  }
  format::MemoryAccessRecord& r = buffer.records[buffer.used];
  r.address = reinterpret_cast<std::uintptr_t>(address);
  const std::uint64_t skipped = buffer.skipped < 0xffffu ? buffer.skipped : 0xffffu;
  buffer.skipped = 0;
  r.pc = reinterpret_cast<std::uintptr_t>(pc) | (skipped << format::kSkippedShift);
  const std::uint64_t tail = record_tail(buffer.thread, size, flags);
  std::memcpy(&r.module, &tail, sizeof tail);
  if (__builtin_expect(++buffer.used == ThreadBuffer::kCapacity, 0)) flush_buffer(buffer);
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
