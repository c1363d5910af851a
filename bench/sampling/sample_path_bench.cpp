// parperf's own part of one call-path sample, without the kernel's signal delivery (which costs
// about 20 µs on this virtual machine and is measured by bench/sampling/overhead.sh): the
// stack walk from a machine context (getcontext, DEPTH calls deep; by the call-frame tables, through
// the thread's cache of unwind recipes as the handler walks, warm after the first) and the path's addition
// to a thread's call-path table, the two things the sample handler does; with the event trace on
// (sample_path_traced), also the tick-clock read and the push into the thread's sample ring, with the
// writer's pops of the ring amortised in (one bulk pop each 2048 samples). Compiled with the
// runtime's sources (libparperf.so hides them).
//
//   build/bin/parperf-sample-path-bench
#include <benchmark/benchmark.h>
#include <ucontext.h>

#include <cstdint>

#include "runtime/call_path_table.hpp"
#include "runtime/clock.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/sample_ring.hpp"
#include "runtime/stack_walk.hpp"

namespace {

using namespace parperf::runtime;

// `ring`: null as without a trace, else the traced thread's.
__attribute__((noinline)) void sample_here(benchmark::State& state, CallPathTable* table, SampleRing* ring,
                                           const StackBounds& stack, UnwindCache* cache) {
  ucontext_t context;
  getcontext(&context);
  std::uintptr_t frames[128];
  parperf::format::TraceSample drained[2048];
  std::uint32_t count = 0;
  for (auto _ : state) {
    count = walk_stack(context, stack, frames, 128, nullptr, cache);
    const std::uint32_t leaf = table->add_sample(frames, count, nullptr);
    if (ring && leaf != CallPathTable::kNoNode) {
      ring->push({now_ticks(), leaf, 1});
      if (ring->size() == 2048) ring->pop(drained, 2048);  // the writer's part, amortised
    }
  }
  state.counters["frames"] = count;
}

__attribute__((noinline)) int nest(int depth, benchmark::State& state, CallPathTable* table, SampleRing* ring,
                                   const StackBounds& stack, UnwindCache* cache) {
  if (depth == 0)
    sample_here(state, table, ring, stack, cache);
  else
    nest(depth - 1, state, table, ring, stack, cache);
  benchmark::DoNotOptimize(depth);
  return depth;  // a call, not a jump: every level stays on the stack
}

void sample(benchmark::State& state, bool traced) {
  clock_init();
  refresh_code_modules();
  static CallPathTable* table = create_call_path_table(16384);
  static SampleRing* ring = create_sample_ring();
  static UnwindCache* cache = create_private<UnwindCache>();
  const int here = 0;
  const StackBounds stack = stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here));
  nest(static_cast<int>(state.range(0)), state, table, traced ? ring : nullptr, stack, cache);
}

void sample_path(benchmark::State& state) { sample(state, false); }
void sample_path_traced(benchmark::State& state) { sample(state, true); }
BENCHMARK(sample_path)->Arg(0)->Arg(20)->Arg(60);
BENCHMARK(sample_path_traced)->Arg(0)->Arg(20)->Arg(60);

}  // namespace

BENCHMARK_MAIN();
