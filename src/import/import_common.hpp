// What the importers of other tools' memory traces share: their options, what they report, their
// error, and the preparation of the output trace.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "format/memory_trace_writer.hpp"
#include "import/code_map.hpp"

namespace parperf::trace_import {

struct ImportOptions {
  std::string input_name = "input";  // starts error messages: "<input_name>:<line>: ..."
  // The traced program. Optional: when it is a non-PIE executable, code addresses inside its text
  // become module-relative (module kExecutableModule); see code_map.hpp.
  std::filesystem::path executable;
};

struct ImportStats {
  std::uint64_t lines = 0;          // lines read
  std::uint64_t accesses = 0;       // records written (a split access counts once per piece)
  std::uint64_t loads = 0;          // records written with the load flag ...
  std::uint64_t stores = 0;         // ... and with the store flag
  std::uint64_t split = 0;          // source accesses written as several records (lackey)
  std::uint64_t skipped_lines = 0;  // lines that were not accesses (lackey: ==pid== lines, program output)
};

// A line an importer cannot make sense of; the message names the input and the line.
class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The module id an importer gives the executable of ImportOptions.
inline constexpr std::uint32_t kExecutableModule = 0;

// Names the source in the trace's process record, defines the executable's module when there is
// one, and returns the map of its code addresses.
ExecutableCodeMap begin_import(format::MemoryTraceWriter& writer, const ImportOptions& options,
                               std::string_view source);

// "<input_name>:<line>: <what>"
[[noreturn]] void import_error(const ImportOptions& options, std::uint64_t line, const std::string& what);

}  // namespace parperf::trace_import
