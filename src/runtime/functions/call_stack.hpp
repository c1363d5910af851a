// Each thread's stack of measured function calls, kept beside the runtime's interval stack so that
// calls whose exits never came (a longjmp out of them, an exception that clang's instrumentation
// unwinds without exit hooks) are closed when the program has visibly left them, not at some later
// exit: otherwise the calls made after a caught exception would nest under the functions it
// unwound.
//
// A call is known by its function's frame address (the frame pointer of the instrumented function,
// which the compiler wrapper keeps with -fno-omit-frame-pointer): the stack grows down, so a new
// call whose frame lies at or above an open call's frame means that call has ended. Exits match
// their own call, closing any left above it; an exit that matches no open call is ignored. Every
// interval begun is ended exactly once, in order, so the runtime never sees an unbalanced end.
#pragma once

#include <cstdint>

#include "parperf/parperf.h"
#include "runtime/functions/function_table.hpp"  // PARPERF_NO_INSTRUMENT

namespace parperf::functions {

struct OpenCall {
  std::uintptr_t frame = 0;  // the function's frame address; 0 when unknown (never found stale)
  const void* fn = nullptr;  // the function's entry address, as the hooks get it
  parperf_site* site = nullptr;
};

struct CallStack {
  static constexpr std::uint32_t kDepth = 512;
  std::uint32_t depth = 0;
  std::uint32_t overflow = 0;  // calls beyond kDepth: begun and ended without a record here
  OpenCall calls[kDepth];
};

// The calling thread's stack, created on its first measured call (private memory); null when
// memory is exhausted (calls are then begun and ended as the hooks see them).
CallStack* current_call_stack() noexcept;

// Entering the function `fn` (measured at `site`), whose frame is at `frame` (0 if unknown): closes
// the open calls the program has left, then opens this one.
PARPERF_NO_INSTRUMENT inline void enter_call(CallStack& stack, const void* fn, parperf_site* site,
                                             std::uintptr_t frame) noexcept {
  if (frame != 0) {
    while (stack.depth > 0 && stack.calls[stack.depth - 1].frame != 0 &&
           stack.calls[stack.depth - 1].frame <= frame)
      parperf_interval_end(stack.calls[--stack.depth].site);
  }
  if (stack.depth < CallStack::kDepth) {
    stack.calls[stack.depth++] = {frame, fn, site};
  } else {
    ++stack.overflow;
  }
  parperf_interval_begin(site, 0);
}

// Leaving the function `fn`: the innermost open call, in the common case (no table lookup then);
// otherwise, when `fn` is measured at all, its open call and any left above it. An exit of no open
// call (an excluded function's, one entered before measuring began) changes nothing.
PARPERF_NO_INSTRUMENT inline void leave_call(CallStack& stack, const void* fn) noexcept {
  if (__builtin_expect(stack.overflow == 0 && stack.depth > 0 && stack.calls[stack.depth - 1].fn == fn, 1)) {
    parperf_interval_end(stack.calls[--stack.depth].site);
    return;
  }
  const FunctionEntry* entry = find_function(fn);
  if (!entry || !entry->site) return;  // excluded, or not measured
  if (stack.overflow > 0) {
    --stack.overflow;
    parperf_interval_end(entry->site);
    return;
  }
  std::uint32_t match = stack.depth;
  while (match > 0 && stack.calls[match - 1].fn != fn) --match;
  if (match == 0) return;
  while (stack.depth >= match) parperf_interval_end(stack.calls[--stack.depth].site);
}

}  // namespace parperf::functions
