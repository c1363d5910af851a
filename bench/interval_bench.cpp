// Cost of the annotation hot path: one begin+end pair of a static-site interval.
//
//   bench/run.sh            (builds nothing; runs build/bin/parperf-bench with a scratch PARPERF_DIR)
//
// Reports ns per pair at nesting depth 1 and 8, with 1 and 2 threads, with recording switched
// off, ns per loop iteration mark (parperf_loop_iteration inside a loop interval), and reference
// costs of the two clocks. `allocs` counts malloc calls per pair during the
// timed loop (after warm-up): it must be 0.
#include <benchmark/benchmark.h>
#include <time.h>
#include <x86intrin.h>

#include <cstddef>
#include <cstdlib>

#include "malloc_counter.hpp"
#include "parperf/parperf.h"

namespace {

parperf_site g_outer[7] = {
    PARPERF_SITE_INIT("outer1", PARPERF_KIND_USER), PARPERF_SITE_INIT("outer2", PARPERF_KIND_USER),
    PARPERF_SITE_INIT("outer3", PARPERF_KIND_USER), PARPERF_SITE_INIT("outer4", PARPERF_KIND_USER),
    PARPERF_SITE_INIT("outer5", PARPERF_KIND_USER), PARPERF_SITE_INIT("outer6", PARPERF_KIND_USER),
    PARPERF_SITE_INIT("outer7", PARPERF_KIND_USER)};
parperf_site g_hot = PARPERF_SITE_INIT("hot", PARPERF_KIND_USER);

void pairs_at_depth(benchmark::State& state, int depth, bool recording) {
  for (int d = 0; d + 1 < depth; ++d) parperf_interval_begin(&g_outer[d], 0);
  if (state.thread_index() == 0) parperf_control(recording ? 1 : 0);
  // Warm-up: the thread registers and the node is created here, outside the timed loop.
  parperf_interval_begin(&g_hot, 0);
  parperf_interval_end(&g_hot);
  const long mallocs_before = t_mallocs;
  for (auto _ : state) {
    parperf_interval_begin(&g_hot, 0);
    parperf_interval_end(&g_hot);
  }
  const long mallocs = t_mallocs - mallocs_before;
  state.counters["allocs"] =
      benchmark::Counter(static_cast<double>(mallocs), benchmark::Counter::kAvgIterations);
  for (int d = depth - 2; d >= 0; --d) parperf_interval_end(&g_outer[d]);
  if (state.thread_index() == 0) parperf_control(1);
}

parperf_site g_loop = PARPERF_SITE_INIT("loop", PARPERF_KIND_SEQUENTIAL_LOOP);

// One iteration mark: ends the previous iteration (its count, sum, extremes and distribution) and
// starts the next. Warm-up creates the node and its distribution block.
void BM_IterationMark(benchmark::State& state) {
  parperf_interval_begin(&g_loop, 0);
  parperf_loop_iteration();
  parperf_loop_iteration();
  const long mallocs_before = t_mallocs;
  for (auto _ : state) parperf_loop_iteration();
  const long mallocs = t_mallocs - mallocs_before;
  state.counters["allocs"] =
      benchmark::Counter(static_cast<double>(mallocs), benchmark::Counter::kAvgIterations);
  parperf_interval_end(&g_loop);
}

void BM_PairDepth1(benchmark::State& state) { pairs_at_depth(state, 1, true); }
void BM_PairDepth8(benchmark::State& state) { pairs_at_depth(state, 8, true); }
void BM_PairRecordingOff(benchmark::State& state) { pairs_at_depth(state, 1, false); }

void BM_ReferenceRdtsc(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}
void BM_ReferenceClockGettime(benchmark::State& state) {
  timespec ts;
  for (auto _ : state) {
    clock_gettime(CLOCK_MONOTONIC, &ts);
    benchmark::DoNotOptimize(ts);
  }
}

BENCHMARK(BM_PairDepth1)->Threads(1)->Threads(2);
BENCHMARK(BM_PairDepth8)->Threads(1)->Threads(2);
BENCHMARK(BM_PairRecordingOff)->Threads(1);
BENCHMARK(BM_IterationMark)->Threads(1)->Threads(2);
BENCHMARK(BM_ReferenceRdtsc);
BENCHMARK(BM_ReferenceClockGettime);

}  // namespace

BENCHMARK_MAIN();
