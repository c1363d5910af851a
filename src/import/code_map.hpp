// Turns the absolute code addresses other tools report into module-relative ones where that needs
// no memory map of the traced process: a position-dependent (non-PIE) executable is loaded at the
// addresses its ELF file names, so inside its executable segments absolute == module-relative.
// Everything else (PIE executables, shared libraries) keeps its absolute address with module
// 0xffffffff, as the runtime does for code it cannot place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "format/memory_trace.hpp"

namespace parperf::trace_import {

class ExecutableCodeMap {
 public:
  ExecutableCodeMap() = default;  // maps nothing

  // Reads the ELF program headers of `executable`; throws ImportError when it cannot read them.
  static ExecutableCodeMap load(const std::filesystem::path& executable, std::uint32_t module);

  bool position_dependent() const { return !text_.empty(); }

  // Sets `access.module` from `access.pc` (an absolute address, 0 when unknown).
  void locate(format::MemoryAccessRecord& access) const;

 private:
  std::uint32_t module_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> text_;  // [begin, end) of executable segments
};

}  // namespace parperf::trace_import
