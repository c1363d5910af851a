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
#include "runtime/walk_memo.hpp"
#include "sample_path_nest.hpp"

namespace {

using namespace parperf::runtime;

struct Sampler {
  benchmark::State& state;
  CallPathTable* table;
  SampleRing* ring;  // null as without a trace, else the traced thread's
  StackBounds stack;
  UnwindCache* cache;
  WalkMemo* memo;
  bool memoised;  // false: the memo is voided before each walk, so every frame is stepped
};

__attribute__((noinline)) void sample_here(void* argument) {
  Sampler& s = *static_cast<Sampler*>(argument);
  ucontext_t context;
  getcontext(&context);
  std::uintptr_t frames[128];
  parperf::format::TraceSample drained[2048];
  std::uint32_t count = 0;
  for (auto _ : s.state) {
    // The memo's worst case starts afresh each time, as after a sample that shared nothing.
    if (!s.memoised) s.memo->walks[s.memo->last].valid = false;
    count = walk_stack(context, s.stack, frames, 128, nullptr, s.cache, s.memo);
    const std::uint32_t leaf = add_walked_path(*s.table, s.memo, frames, count, nullptr, 1);
    if (s.ring && leaf != CallPathTable::kNoNode) {
      s.ring->push({now_ticks(), leaf, 1});
      if (s.ring->size() == 2048) s.ring->pop(drained, 2048);  // the writer's part, amortised
    }
  }
  s.state.counters["frames"] = count;
}

void sample(benchmark::State& state, bool traced, bool memoised) {
  clock_init();
  refresh_code_modules();
  static CallPathTable* table = create_call_path_table(16384);
  static SampleRing* ring = create_sample_ring();
  static UnwindCache* cache = create_private<UnwindCache>();
  static WalkMemo* memo = create_private<WalkMemo>();
  const int here = 0;
  Sampler s{state,
            table,
            traced ? ring : nullptr,
            stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here)),
            cache,
            memo,
            memoised};
  nest_without_frame_pointers(static_cast<int>(state.range(0)), {sample_here, &s});
}

// Depths giving paths of 13 and 64 frames (the benchmark library's and libc's frames below).
void sample_path(benchmark::State& state) { sample(state, false, true); }
void sample_path_unmemoised(benchmark::State& state) { sample(state, false, false); }
void sample_path_traced(benchmark::State& state) { sample(state, true, true); }
BENCHMARK(sample_path)->Arg(0)->Arg(51);
BENCHMARK(sample_path_unmemoised)->Arg(0)->Arg(51);
BENCHMARK(sample_path_traced)->Arg(0)->Arg(51);

}  // namespace

BENCHMARK_MAIN();
