// parperf's own part of one call-path sample, without the kernel's signal delivery (which costs
// about 20 µs on this virtual machine and is measured by bench/sampling/overhead.sh): the
// frame-pointer walk from a machine context (getcontext, DEPTH calls deep) and the path's addition
// to a thread's call-path table, the two things the sample handler does. Compiled with the
// runtime's sources (libparperf.so hides them).
//
//   build/bin/parperf-sample-path-bench
#include <benchmark/benchmark.h>
#include <ucontext.h>

#include <cstdint>

#include "runtime/call_path_table.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/stack_walk.hpp"

namespace {

using namespace parperf::runtime;

__attribute__((noinline)) void sample_here(benchmark::State& state, CallPathTable* table,
                                           const StackBounds& stack) {
  ucontext_t context;
  getcontext(&context);
  std::uintptr_t frames[128];
  std::uint32_t count = 0;
  for (auto _ : state) {
    count = walk_stack(context, stack, frames, 128);
    table->add_sample(frames, count, nullptr);
  }
  state.counters["frames"] = count;
}

__attribute__((noinline)) int nest(int depth, benchmark::State& state, CallPathTable* table,
                                   const StackBounds& stack) {
  if (depth == 0)
    sample_here(state, table, stack);
  else
    nest(depth - 1, state, table, stack);
  benchmark::DoNotOptimize(depth);
  return depth;  // a call, not a jump: every level stays on the stack
}

void sample_path(benchmark::State& state) {
  refresh_code_modules();
  static CallPathTable* table = create_call_path_table(16384);
  const int here = 0;
  const StackBounds stack = stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here));
  nest(static_cast<int>(state.range(0)), state, table, stack);
}
BENCHMARK(sample_path)->Arg(0)->Arg(20)->Arg(60);

}  // namespace

BENCHMARK_MAIN();
