// Per-thread buffers of loads and stores, filled by the sanitizer-coverage hooks (access_hooks.cpp)
// and written to the memory trace (trace_file.hpp) when full and at exit.
//
// The hot path is a bounds check and a 24-byte store into the calling thread's buffer: no lock, no
// allocation, no system call. A full buffer is handed to the trace file under a mutex, on the
// thread that filled it (the writes are large and rare: one per 64 Ki accesses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "format/memory_trace.hpp"
#include "runtime/memory/sampling.hpp"

namespace parperf::memory {

struct ThreadBuffer {
  static constexpr std::uint32_t kCapacity = 1u << 16;
  std::uint16_t thread = 0;
  std::uint32_t used = 0;
  std::uint32_t skipped = 0;  // accesses left out by sampling since the last recorded one
  // The process's sampling threshold (kSampleModulus: keep all), copied here when the buffer is
  // made so that the hooks read it from the cache line they write anyway.
  std::uint32_t sample_threshold = kSampleModulus;
  // The burst sampler's state (burst_sampling.cpp): sampled accesses still to record in the current
  // burst, and the thread's random generator of the gaps between bursts.
  std::uint32_t burst_left = 0;
  std::uint64_t random_state = 0;
  ThreadBuffer* next = nullptr;  // registry of every thread's buffer, for the final flush
  // Absolute code addresses until written: the file gets module-relative ones.
  format::MemoryAccessRecord records[kCapacity];
};

// The calling thread's buffer. initial-exec: the library is linked into the program (never
// dlopen'ed), so this is one %fs-relative load, without a __tls_get_addr call on every access.
extern constinit thread_local ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec")));

// Writes the buffer's records to the trace and empties it.
void flush_buffer(ThreadBuffer& buffer) noexcept;

// The record's last 8 bytes (module, thread, size, flags) as one store: module 0 (resolved when
// the buffer is written), then the thread, the size and the flags.
inline std::uint64_t record_tail(std::uint16_t thread, std::uint8_t size, std::uint8_t flags) noexcept {
  return (std::uint64_t{thread} << 32) | (std::uint64_t{size} << 48) | (std::uint64_t{flags} << 56);
}
static_assert(offsetof(format::MemoryAccessRecord, module) == 16 &&
              offsetof(format::MemoryAccessRecord, thread) == 20 &&
              offsetof(format::MemoryAccessRecord, size) == 22 &&
              offsetof(format::MemoryAccessRecord, flags) == 23 && sizeof(format::MemoryAccessRecord) == 24);

// Appends one access to the buffer, with the count of the thread's accesses sampling skipped just
// before it, and writes the buffer out when it is full.
inline void append_access(ThreadBuffer& buffer, const void* address, std::uint8_t size, std::uint8_t flags,
                          const void* pc) noexcept {
  format::MemoryAccessRecord& r = buffer.records[buffer.used];
  r.address = reinterpret_cast<std::uintptr_t>(address);
  const std::uint64_t skipped = buffer.skipped < 0xffffu ? buffer.skipped : 0xffffu;
  buffer.skipped = 0;
  r.pc = reinterpret_cast<std::uintptr_t>(pc) | (skipped << format::kSkippedShift);
  const std::uint64_t tail = record_tail(buffer.thread, size, flags);
  std::memcpy(&r.module, &tail, sizeof tail);
  if (__builtin_expect(++buffer.used == ThreadBuffer::kCapacity, 0)) flush_buffer(buffer);
}

// Creates the calling thread's buffer; null when the trace is finished or memory is short.
ThreadBuffer* create_thread_buffer() noexcept;

// At exit: every thread's remaining records, then the trace's end.
void finish_trace() noexcept;

// The same from a fatal-signal handler: gives up when the signal interrupted a flush (the file is
// then left without its end, and the reader reports the accesses up to the last whole section).
void finish_trace_after_signal() noexcept;

// The fatal-signal handlers that finish the trace (exit_flush.cpp); called with the first buffer.
void install_exit_handlers() noexcept;

}  // namespace parperf::memory
