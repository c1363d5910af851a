// Cost of the GASP tool's hot path (libparperf-gasp.so): one shared put as a UPC compiler reports it,
// GASP_START then GASP_END with the specification's arguments, at a site the thread has met; a
// barrier wait likewise; and a user event's start and end.
//
//   build/bin/parperf-gasp-bench   (PARPERF_DIR=<scratch directory>: the runtime writes a profile)
//
// `allocs` counts malloc calls per pair during the timed loop (after warm-up): it must be 0.
#include <benchmark/benchmark.h>

#include <cstddef>

#include "malloc_counter.hpp"
#include "parperf/gasp.h"

namespace {

const char* const kFile = "bench.upc";
char g_buffer[64];

template <class Pair>
void measure_pairs(benchmark::State& state, Pair pair) {
  int argc = 0;
  char** argv = nullptr;
  gasp_context_t context = gasp_init(GASP_MODEL_UPC, &argc, &argv);
  pair(context);  // warm-up: the site is interned and cached here
  const long before = t_mallocs;
  for (auto _ : state) pair(context);
  state.counters["allocs"] =
      benchmark::Counter(static_cast<double>(t_mallocs - before), benchmark::Counter::kAvgIterations);
}

void BM_GaspPut(benchmark::State& state) {
  measure_pairs(state, [](gasp_context_t c) {
    gasp_event_notify(c, GASP_UPC_PUT, GASP_START, kFile, 21, 5, 1, g_buffer, g_buffer, sizeof g_buffer);
    gasp_event_notify(c, GASP_UPC_PUT, GASP_END, kFile, 21, 5, 1, g_buffer, g_buffer, sizeof g_buffer);
  });
}

void BM_GaspBarrierWait(benchmark::State& state) {
  measure_pairs(state, [](gasp_context_t c) {
    gasp_event_notify(c, GASP_UPC_WAIT, GASP_START, kFile, 31, 3, 0, 0);
    gasp_event_notify(c, GASP_UPC_WAIT, GASP_END, kFile, 31, 3, 0, 0);
  });
}

void BM_GaspUserEvent(benchmark::State& state) {
  static const unsigned event = gasp_create_event(nullptr, "bench", "step %d");
  measure_pairs(state, [](gasp_context_t c) {
    gasp_event_notify(c, event, GASP_START, kFile, 40, 3, 7);
    gasp_event_notify(c, event, GASP_END, kFile, 40, 3);
  });
}

}  // namespace

BENCHMARK(BM_GaspPut);
BENCHMARK(BM_GaspPut)->Threads(2);
BENCHMARK(BM_GaspBarrierWait);
BENCHMARK(BM_GaspUserEvent);
BENCHMARK_MAIN();
