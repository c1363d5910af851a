// Instrumented functions by entry address: what the hooks do for each (enter and leave its site,
// or nothing when the filter excludes it or the process is not measured).
//
// A fixed open-addressed table of pointers to entries, searched without a lock: an entry is built
// in private memory once and published with a release store into an empty slot, and never changes
// after. A lookup of a known function reads one slot (a few on a collision) and the entry.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "parperf/parperf.h"

// The hooks and everything they call must not be instrumented themselves (they would call
// themselves); the library is built without -finstrument-functions, this says it in the code too.
#define PARPERF_NO_INSTRUMENT __attribute__((no_instrument_function))

namespace parperf::functions {

struct FunctionEntry {
  const void* fn = nullptr;
  parperf_site* site = nullptr;  // null: not measured (excluded, or the process is not measured)
};

inline constexpr std::size_t kTableSize = std::size_t{1} << 15;
inline constexpr std::size_t kMaxFunctions = kTableSize / 4 * 3;  // probes stay short

extern std::atomic<const FunctionEntry*> g_functions[kTableSize];

PARPERF_NO_INSTRUMENT inline std::size_t slot_of(const void* fn) noexcept {
  // Fibonacci hashing of the address; its low bits (alignment) carry little.
  return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(fn) * 0x9e3779b97f4a7c15ull) >> 49);
}
static_assert(kTableSize == std::size_t{1} << (64 - 49));

// The entry of `fn`, or null when the function has not been entered yet.
PARPERF_NO_INSTRUMENT inline const FunctionEntry* find_function(const void* fn) noexcept {
  for (std::size_t slot = slot_of(fn);; slot = (slot + 1) & (kTableSize - 1)) {
    const FunctionEntry* entry = g_functions[slot].load(std::memory_order_acquire);
    if (!entry || entry->fn == fn) return entry;
  }
}

// Cold path, the first entry of `fn` in the process: decides whether it is measured (the runtime
// measures this process, the module's filter does not exclude it) and creates its site. Returns
// null when `fn` cannot be given an entry now (called from inside this very path, or the table is
// full): the call is then not measured.
const FunctionEntry* add_function(const void* fn) noexcept;

}  // namespace parperf::functions
