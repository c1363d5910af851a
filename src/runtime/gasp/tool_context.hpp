// The tool's state for one program thread (gasp_context_t): the events it has started and not yet
// ended, and the sites it has met, so that a repeated event finds its site without a lock.
#pragma once

#include <cstdint>

#include "parperf/parperf.h"

struct _gasp_context_S;

namespace parperf::gasp {

// A started event awaiting its end.
struct OpenEvent {
  unsigned tag = 0;
  parperf_site* site = nullptr;  // null for a user event
  std::uint64_t start = 0;       // ticks
};

// One entry of the site cache: the site of (tag, file, line), the file known by its address (a
// compiler passes the same literal each time; another copy of the name is a miss that finds the
// same interned site).
struct CachedSite {
  const char* file = nullptr;
  int line = 0;
  unsigned tag = 0;
  parperf_site* site = nullptr;
};

struct ToolContext {
  bool measured = false;  // the UPC model, and the runtime measures this process
  static constexpr int kMaxOpen = 64;
  OpenEvent open[kMaxOpen];
  int open_count = 0;
  int open_overflow = 0;  // starts beyond kMaxOpen, ended without being measured
  static constexpr unsigned kCacheSize = 512;
  CachedSite cache[kCacheSize];
};

// A new context (private memory, never the program's heap); null when memory is exhausted.
ToolContext* create_context(bool measured) noexcept;

// The site of `tag` at `file`:`line`, named `name`, of `kind`: from the cache, else interned.
parperf_site* site_for(ToolContext& context, unsigned tag, const char* name, std::uint32_t kind,
                       const char* file, int line) noexcept;

}  // namespace parperf::gasp
