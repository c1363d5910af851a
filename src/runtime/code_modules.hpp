// The executable segments of the modules loaded in the process, as the sample handler needs them:
// to accept a return address only when it points into code (a frame-pointer walk through code built
// without frame pointers reads arbitrary words), and at write time to turn addresses into a module
// and a module-relative address (what the analysis symbolizes).
//
// The table is filled off the signal path (dl_iterate_phdr takes the loader's lock): when sampling
// starts, when a thread registers and when a profile is written outside a signal handler. It only
// grows; entries are complete before the release store of the count that publishes them, so the
// handler reads them without a lock. A library unloaded since keeps its entry (the profile's
// addresses in it still name it) but is marked gone: a frame-pointer walk reads stale words on the
// stack that point into it, and its code, unmapped, must not be read (forget_unloaded_code_modules,
// called after every dlclose).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/cfi_unwind.hpp"

namespace parperf::runtime {

struct CodeRange {
  std::uintptr_t start = 0;  // absolute addresses of one executable segment: [start, end)
  std::uintptr_t end = 0;
  std::uintptr_t load_bias = 0;  // link_map::l_addr: absolute minus module-relative
  std::uint32_t module = 0;      // index into the module paths
  bool readable = false;         // the segment's bytes may be read (not execute-only)
};

// Adds the executable segments of the modules loaded since the last call. Not from a signal handler.
void refresh_code_modules() noexcept;

// The range holding `address`, or null. Async-signal-safe, lock-free.
const CodeRange* code_range_of(std::uintptr_t address) noexcept;

// The same, but null when its module has been unloaded: the ranges a stack walk may read. Async-signal-safe.
const CodeRange* walkable_code_range_of(std::uintptr_t address) noexcept;

// Marks the module loaded at `load_bias` as gone (before it is unloaded). Not from a signal handler.
void forget_code_module_at(std::uintptr_t load_bias) noexcept;

// Marks the modules no longer loaded as gone, and those loaded again as not. Not from a signal handler.
void forget_unloaded_code_modules() noexcept;

// Changes whenever a module is marked gone or loaded again: what was learnt of the code before (the
// unwind recipes a thread keeps) no longer holds. Async-signal-safe.
std::uint32_t code_generation() noexcept;

// How many code ranges are listed: grows when a module is loaded (its code becomes walkable).
// Async-signal-safe.
std::uint32_t code_range_count() noexcept;

// Where the module's unwind tables are mapped (cfi_unwind.hpp); eh_frame_hdr 0 when it has none.
// Async-signal-safe.
const UnwindTables& unwind_tables_of(std::uint32_t module) noexcept;

// The module paths known so far, by index; path(i) is NUL-terminated.
std::uint32_t code_module_count() noexcept;
const char* code_module_path(std::uint32_t module) noexcept;

}  // namespace parperf::runtime
