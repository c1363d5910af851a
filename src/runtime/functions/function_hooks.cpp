// The hooks that gcc's and clang's -finstrument-functions call at the entry and exit of every
// instrumented function (`parperf cc|c++|fortran --instrument=functions`, docs/instrumentation.md):
// each function becomes an interval of kind `function` on the runtime's interval stack.
//
// Cost model (bench/function_bench.cpp measures it): a measured function's entry is the compiler's
// call of the hook, a lookup of the function's address in a process-wide table (a multiply, one
// slot load and the entry's load, no lock), and parperf_interval_begin on its site — the annotation
// hot path (interval_api.cpp: about 25 ns a begin/end pair) through one PLT call; its exit is the
// same lookup and parperf_interval_end. A function the filter excludes costs the hook calls and the
// two lookups only (a few ns). The first entry of each function takes the cold path
// (function_table.cpp: a lock, its module's exclusion list, the site's creation); nothing is
// allocated, locked or hashed by name afterwards.
//
// Matching entries and exits is the interval stack's work: an exit that is not the innermost
// interval's (a longjmp or an exception skipped exits; clang calls no exit hook on an unwind)
// closes the intervals above the function's own frame, and one that matches no open frame is
// ignored (interval_api.cpp). Recursion nests as deep as PARPERF_MAX_DEPTH; deeper entries are
// counted but not recorded. A thread's first hook registers it; before the runtime measures the
// process (or when it does not), the first lookup of each function marks it not measured.
#include "parperf/parperf.h"
#include "runtime/functions/function_table.hpp"

using parperf::functions::add_function;
using parperf::functions::find_function;
using parperf::functions::FunctionEntry;

extern "C" {

PARPERF_API PARPERF_NO_INSTRUMENT void __cyg_profile_func_enter(void* fn, void* /*call_site*/) {
  const FunctionEntry* entry = find_function(fn);
  if (__builtin_expect(!entry, 0)) entry = add_function(fn);
  if (entry && entry->site) parperf_interval_begin(entry->site, 0);
}

PARPERF_API PARPERF_NO_INSTRUMENT void __cyg_profile_func_exit(void* fn, void* /*call_site*/) {
  // A function without an entry was not measured when it was entered either.
  const FunctionEntry* entry = find_function(fn);
  if (entry && entry->site) parperf_interval_end(entry->site);
}

}  // extern "C"
