// Writes a memory trace file (`.ppm`) the way the runtime does: the header, a `modules` section,
// `accesses` sections of at most `accesses_per_section` records, the `process` section and the end
// marker. For importers of other tools' traces and for tests; the runtime has its own
// allocation-free writer (runtime/memory/trace_file.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "format/memory_trace_reader.hpp"

namespace parperf::format {

class MemoryTraceWriter {
 public:
  static constexpr std::size_t kDefaultAccessesPerSection = std::size_t{1} << 16;  // as the runtime

  // Creates (truncates) `path`; throws std::runtime_error when it cannot.
  explicit MemoryTraceWriter(const std::filesystem::path& path,
                             std::size_t accesses_per_section = kDefaultAccessesPerSection);
  ~MemoryTraceWriter();
  MemoryTraceWriter(const MemoryTraceWriter&) = delete;
  MemoryTraceWriter& operator=(const MemoryTraceWriter&) = delete;

  // Defines a module accesses may refer to; only before the first access (the modules section
  // precedes the accesses). Throws std::logic_error on a late or duplicate definition.
  void define_module(std::uint32_t id, std::string path);

  // The process section's content, written by finish(): fill it in any time before.
  MemoryTraceProcess& process() { return process_; }

  // Buffers one access; a full buffer becomes an `accesses` section. Throws std::invalid_argument
  // for a record the reader would refuse (size, flags, undefined module), so an importer's bug
  // surfaces where it is made.
  void add(const MemoryAccessRecord& access);

  // Writes what remains, the process section and the end marker, and closes the file; throws
  // std::runtime_error on a write error. A writer destroyed without finish() leaves a file without
  // end marker, which readers report as interrupted.
  void finish();

  std::uint64_t accesses_written() const { return accesses_; }

 private:
  class Sink;
  void write_modules();
  void flush_accesses();

  std::filesystem::path path_;
  std::unique_ptr<Sink> sink_;
  std::size_t accesses_per_section_;
  std::vector<MemoryModule> modules_;
  std::vector<MemoryAccessRecord> pending_;
  MemoryTraceProcess process_;
  std::uint64_t accesses_ = 0;
  bool modules_written_ = false;
  bool finished_ = false;
};

}  // namespace parperf::format
