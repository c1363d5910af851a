// Streams memory trace files (`.ppm`, format/memory_trace.hpp) to a visitor, one batch of accesses
// at a time: a trace can hold 10^9 accesses, so the reader never holds more than one batch (at most
// kMaxAccessBatch records) in memory. Everything is checked before it is trusted, like the profile
// reader; any problem throws FormatError naming the file and what is wrong.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <span>
#include <string>
#include <string_view>

#include "format/memory_trace.hpp"
#include "format/profile_reader.hpp"  // FormatError

namespace parperf::format {

// MemoryAccessRecord::module when the pc is not module-relative (unknown, or an absolute address).
inline constexpr std::uint32_t kNoModule = 0xffffffffu;

// Largest batch handed to MemoryTraceVisitor::accesses (24 MiB of records). A section that fits in
// one batch is verified against its checksum before any of it is delivered; a larger section (the
// runtime writes 64 Ki accesses per section, so only foreign writers make them) is delivered batch
// by batch and a checksum mismatch is reported after its earlier batches were seen.
inline constexpr std::size_t kMaxAccessBatch = std::size_t{1} << 20;

// The largest metadata section (process, modules, sampling, a later version's kinds), which is read
// whole: a module table of 16 384 modules with paths of PATH_MAX bytes takes 64 MiB. A larger claim
// (a planted sparse file) is refused before anything is read.
inline constexpr std::uint64_t kMaxMemoryMetadataBytes = std::uint64_t{64} << 20;

struct MemoryTraceProcess {
  std::int64_t rank = 0;
  std::int64_t pid = 0;
  std::uint64_t dropped = 0;  // accesses the capturer could not record
  std::string command_line;
  std::string source;  // "parperf-mem", "lackey", "text"
};

// The capturer's sampling (MemorySamplingRecord): the share of memory blocks whose accesses the
// trace holds.
struct MemoryTraceSampling {
  double rate = 1.0;  // threshold / modulus, in (0, 1]
  std::uint32_t block_bytes = 0;
};

// The capturer's bursts (MemoryBurstRecord).
struct MemoryTraceBursts {
  std::uint64_t burst_length = 0;
  std::uint64_t mean_gap = 0;
};

struct MemoryModule {
  std::uint32_t id = 0;
  std::string path;
};

// Receives a trace's content in file order. The runtime writes the modules first and the process
// section last (its `dropped` count is known only at exit), so `process` may come before or after
// the accesses. Modules are delivered before any access that refers to them (the reader refuses an
// access to a module no earlier section defined).
class MemoryTraceVisitor {
 public:
  virtual ~MemoryTraceVisitor() = default;
  virtual void process(const MemoryTraceProcess& /*process*/) {}
  virtual void modules(std::span<const MemoryModule> /*modules*/) {}     // once per `modules` section
  virtual void sampling(const MemoryTraceSampling& /*sampling*/) {}      // before any access, if sampled
  virtual void bursts(const MemoryTraceBursts& /*bursts*/) {}            // before any access, if in bursts
  virtual void accesses(std::span<const MemoryAccessRecord> batch) = 0;  // never empty
};

// Reads the trace at `path`. The message of a FormatError starts with the path:
// "memory.0.ppm: corrupt: checksum mismatch in section 3 (accesses)".
void read_memory_trace(const std::filesystem::path& path, MemoryTraceVisitor& visitor);

// Reads a trace from any stream (a pipe, a string in tests); `name` starts the messages.
void read_memory_trace(std::istream& in, std::string_view name, MemoryTraceVisitor& visitor);

}  // namespace parperf::format
