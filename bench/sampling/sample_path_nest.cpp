// The chain of calls sample_path_bench.cpp samples at its end, in a file of its own so that it is
// built as users build (-O2 without frame pointers, bench/sampling/CMakeLists.txt): only the
// call-frame tables walk it, as the handler walks most programs' code.
#include "sample_path_nest.hpp"

#include <benchmark/benchmark.h>

__attribute__((noinline)) int nest_without_frame_pointers(int depth, const NestedCall& at_the_end) {
  if (depth == 0)
    at_the_end.call(at_the_end.state);
  else
    nest_without_frame_pointers(depth - 1, at_the_end);
  benchmark::DoNotOptimize(depth);
  return depth;  // a call, not a jump: every level stays on the stack
}
