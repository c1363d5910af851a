// What parperf makes of each GASP UPC event tag (include/parperf/gasp.h): an operation at a source
// site (a put with its bytes, a barrier wait, a lock acquisition...), an interval (upc_forall, a
// function), the end of the run, or nothing. One table, read by the tool's notify entry points.
#pragma once

#include <cstdarg>
#include <cstdint>

#include "format/site_kinds.hpp"

namespace parperf::gasp {

enum class Action : std::uint8_t {
  ignore,       // an event parperf does not measure (cache statistics, C malloc)
  operation,    // start..end is one operation at the event's file:line
  interval,     // start..end is an interval (upc_forall)
  function,     // start..end is an interval named by the funcsig argument (GASP_C_FUNC)
  global_exit,  // upc_global_exit (atomic): an operation, then the profile is written
};

// How to read the bytes an event moves from its variadic arguments (they are the same at its start
// and its end up to the bytes; the end may add a handle or a result after them).
enum class Bytes : std::uint8_t {
  none,
  put_get,     // int is_relaxed, void* dst, void* src, size_t n
  mem,         // void* dst, void* src, size_t n (memcpy, memget, memput)
  memset,      // void* dst, int c, size_t n
  collective,  // void* dst, void* src, size_t nbytes, int flags
  permute,     // void* dst, void* src, void* perm, size_t nbytes, int flags
  reduce,      // void* dst, void* src, int op, size_t nelems, size_t blk, void* func, int flags, type
};

struct EventMapping {
  Action action = Action::ignore;
  format::SiteKind kind = format::SiteKind::program;
  const char* name = "";  // the site's name: the UPC operation
  Bytes bytes = Bytes::none;
  bool waits = false;  // its whole duration is waiting for other threads (barrier wait, lock)
};

// The mapping of a UPC tag (GASP_C_FUNC .. GASP_UPC_ALL_PREFIX_REDUCE); `ignore` for any other.
const EventMapping& upc_event(unsigned tag) noexcept;

// The bytes the event's arguments say it moves (`args` is consumed).
std::uint64_t bytes_of(Bytes how, va_list* args) noexcept;

}  // namespace parperf::gasp
