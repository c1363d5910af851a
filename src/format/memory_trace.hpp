// Memory access streams (`.ppm` files): the loads and stores `parperf locality` scores, whoever
// captured them (the libparperf-mem runtime, or an importer of another tool's trace). The container
// is the profile format's (docs/format.md: file header, sections with a CRC-32C, end marker and
// section count) with its own magic; the records are these. docs/locality.md documents the bytes.
#pragma once

#include <array>
#include <cstdint>

#include "format/records.hpp"

namespace parperf::format {

inline constexpr std::array<std::uint8_t, 8> kMemoryTraceMagic = {0x89, 'P',  'P',  'M',
                                                                  '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint16_t kMemoryTraceVersionMajor = 1;
inline constexpr std::uint16_t kMemoryTraceVersionMinor = 1;  // 1.1: the bursts section

enum class MemoryTraceSection : std::uint32_t {
  process = 1,   // one MemoryTraceProcessRecord
  modules = 2,   // MemoryModuleRecord*: the executable and libraries code addresses refer to
  accesses = 3,  // MemoryAccessRecord*, in the order each thread made them; sections may repeat
  sampling = 4,  // one MemorySamplingRecord, before any access, when the capturer sampled
  bursts = 5,    // one MemoryBurstRecord, before any access, when the capturer recorded bursts
};

// MemoryAccessRecord::flags
inline constexpr std::uint8_t kAccessStore = 1;  // else a load

struct MemoryTraceProcessRecord {
  std::int64_t rank = 0;
  std::int64_t pid = 0;
  std::uint64_t dropped = 0;  // accesses not recorded (buffers full, writer behind)
  Str command_line{};
  Str source{};  // who captured it: "parperf-mem", "lackey", "text"
};

struct MemoryModuleRecord {
  std::uint32_t id = 0;
  std::uint32_t reserved = 0;
  Str path{};
};

// The capturer kept only the accesses to sampled blocks of memory: a block of `block_bytes` bytes
// (a power of two) is kept iff hash(address / block_bytes) mod `modulus` < `threshold`, so the
// stream holds every access to a sampled block and the rate is threshold / modulus (SHARDS spatial
// sampling at block granularity). Absent: every access was recorded.
struct MemorySamplingRecord {
  std::uint64_t modulus = 0;
  std::uint64_t threshold = 0;
  std::uint32_t block_bytes = 0;
  std::uint32_t reserved = 0;
};

// The capturer recorded bursts (`parperf cc --sampled`, runtime/memory/burst_sampling.cpp): each
// thread's stream holds bursts of `burst_length` consecutive accesses separated by random gaps of
// `mean_gap` skipped accesses on average. The first access of a burst has a skipped count (below)
// above 0; the others have 0. Absent: no bursts.
struct MemoryBurstRecord {
  std::uint64_t burst_length = 0;
  std::uint64_t mean_gap = 0;
};

// One load or store: the data address, its size in bytes, and the code address that made it
// (module-relative, 0 when unknown), by which the analysis finds the function.
struct MemoryAccessRecord {
  std::uint64_t address = 0;
  std::uint64_t pc = 0;
  std::uint32_t module = 0xffffffffu;  // MemoryModuleRecord id; 0xffffffff when pc is unknown
  std::uint16_t thread = 0;            // 0 = the first thread of the process
  std::uint8_t size = 0;               // bytes: 1, 2, 4, 8, 16
  std::uint8_t flags = 0;              // kAccessStore
};

// In a sampled trace (one with a sampling or bursts section) bits 48..63 of MemoryAccessRecord::pc count the
// accesses of the thread the capturer skipped since the one before (saturating at 65535), so that
// the spatial window spans the same stretch of the thread's stream as without sampling; bits 0..47
// are the code address (user-space code addresses have 47 bits on x86-64 and AArch64).
inline constexpr unsigned kSkippedShift = 48;
inline constexpr std::uint64_t kCodeAddressMask = (std::uint64_t{1} << kSkippedShift) - 1;
inline std::uint64_t code_address(const MemoryAccessRecord& r) { return r.pc & kCodeAddressMask; }
inline std::uint16_t skipped_before(const MemoryAccessRecord& r) {
  return static_cast<std::uint16_t>(r.pc >> kSkippedShift);
}

template <class F>
void named_fields(MemoryTraceProcessRecord& r, F&& f) {
  f("rank", r.rank), f("pid", r.pid), f("dropped", r.dropped), f("command_line", r.command_line),
      f("source", r.source);
}
template <class F>
void named_fields(MemoryModuleRecord& r, F&& f) {
  f("id", r.id), f("reserved", r.reserved), f("path", r.path);
}
template <class F>
void named_fields(MemorySamplingRecord& r, F&& f) {
  f("modulus", r.modulus), f("threshold", r.threshold), f("block_bytes", r.block_bytes),
      f("reserved", r.reserved);
}
template <class F>
void named_fields(MemoryBurstRecord& r, F&& f) {
  f("burst_length", r.burst_length), f("mean_gap", r.mean_gap);
}
template <class F>
void named_fields(MemoryAccessRecord& r, F&& f) {
  f("address", r.address), f("pc", r.pc), f("module", r.module), f("thread", r.thread), f("size", r.size),
      f("flags", r.flags);
}

// The memory trace's file header.
inline FileHeader memory_trace_header() {
  return file_header_of(kMemoryTraceMagic, kMemoryTraceVersionMajor, kMemoryTraceVersionMinor);
}

}  // namespace parperf::format
