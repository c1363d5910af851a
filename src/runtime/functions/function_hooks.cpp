// The hooks that gcc's and clang's -finstrument-functions call at the entry and exit of every
// instrumented function (`parperf cc|c++|fortran --instrument=functions`, docs/instrumentation.md):
// each function becomes an interval of kind `function` on the runtime's interval stack.
//
// Cost model (bench/functions/function_cost.sh measures it): a measured function's entry is the
// compiler's call of the hook, a lookup of the function's address in a process-wide table (a
// multiply, one slot load and the entry's load, no lock), a push on the thread's call stack (below)
// and parperf_interval_begin on its site — the annotation hot path (interval_api.cpp: about 25 ns
// a begin/end pair) through one PLT call; its exit compares the function with the innermost open
// call's, pops it and calls parperf_interval_end. A function the filter excludes costs the hook
// calls, the lookup and, at its exit, one compare and the lookup again (a few ns). The first entry of each
// function takes the cold path (function_table.cpp: a lock, its module's exclusion list, the site's
// creation); nothing is allocated, locked or hashed by name afterwards.
//
// Entries and exits are matched on a per-thread call stack (call_stack.hpp: one TLS load, a
// compare with the innermost open call's frame address and a store on entry, a compare and a
// decrement on exit), so that the runtime's interval stack only ever sees balanced begins and
// ends: calls a longjmp or an exception left without their exits (clang calls no exit hook on an
// unwind) are closed as soon as a new call shows that the program has left them, or when a
// function still open returns; an exit of no open call is ignored. Recursion nests as deep as
// PARPERF_MAX_DEPTH; deeper entries are counted but not recorded. A thread's first hook registers it; before
// the runtime measures the process (or when it does not), the first lookup of each function marks it not
// measured.
#include <cstdint>

#include "parperf/parperf.h"
#include "runtime/functions/call_stack.hpp"
#include "runtime/functions/function_table.hpp"

namespace {

using namespace parperf::functions;

// The instrumented function's frame address: the frame pointer its prologue set, which the hook's
// own frame saved (the library is built with frame pointers, the wrapper compiles the program with
// them). A value that cannot be a frame of this stack above the hook's (code built without frame
// pointers holds anything in that register) is unknown: 0.
PARPERF_NO_INSTRUMENT __attribute__((always_inline)) inline std::uintptr_t caller_frame() {
  const auto own = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  // The hook's frame record begins with the caller's frame pointer (x86-64 and AArch64 alike);
  // __builtin_frame_address(1) reads the same word, with a warning that it may be garbage.
  const std::uintptr_t caller = *reinterpret_cast<const std::uintptr_t*>(__builtin_frame_address(0));
  constexpr std::uintptr_t kPlausibleFrame = std::uintptr_t{1} << 24;  // 16 MB: no frame is larger
  return caller > own && caller - own < kPlausibleFrame ? caller : 0;
}

}  // namespace

extern "C" {

PARPERF_API PARPERF_NO_INSTRUMENT void __cyg_profile_func_enter(void* fn, void* /*call_site*/) {
  const FunctionEntry* entry = find_function(fn);
  if (__builtin_expect(!entry, 0)) entry = add_function(fn);
  if (!entry || !entry->site) return;
  if (CallStack* stack = current_call_stack()) {
    enter_call(*stack, fn, entry->site, caller_frame());
  } else {
    parperf_interval_begin(entry->site, 0);
  }
}

PARPERF_API PARPERF_NO_INSTRUMENT void __cyg_profile_func_exit(void* fn, void* /*call_site*/) {
  if (CallStack* stack = current_call_stack()) {
    leave_call(*stack, fn);
    return;
  }
  // Without a call stack (memory exhausted), as the entry did: by the table.
  const FunctionEntry* entry = find_function(fn);
  if (entry && entry->site) parperf_interval_end(entry->site);
}

}  // extern "C"
