// Throughput of the locality engine (src/analysis/locality), and its known-answer streams at full
// size (DESIGN.md section 6), too slow for the sanitized unit tests.
//
//   build/bin/parperf-locality-bench [--benchmark_filter=...]
//
// Targets: exact engine >= 15 M accesses/s per core on a random stream over 1M distinct words;
// SHARDS at rate 0.01 >= 100 M accesses/s (the unsampled path is a hash check and a window push,
// with no allocation). TL counters: cyclic 10^6 words x 50 sweeps ~ 0.049, uniform random over
// 10^6 words (20 accesses per word) ~ 0.10.
#include <benchmark/benchmark.h>

#include <random>
#include <span>
#include <vector>

#include "analysis/locality/locality_analyzer.hpp"

namespace {

using parperf::locality::Access;
using parperf::locality::LocalityAnalyzer;
using parperf::locality::LocalityOptions;

constexpr std::uint64_t kWords = 1'000'000;

// A fixed buffer of random accesses over kWords words, replayed so that generating them is not timed.
const std::vector<Access>& random_accesses() {
  static const std::vector<Access> accesses = [] {
    std::vector<Access> result(1 << 22);
    std::mt19937_64 random(1);
    std::uniform_int_distribution<std::uint64_t> pick(0, kWords - 1);
    for (auto& access : result) access = Access{pick(random) * 8, 0, 0, 8, false};
    return result;
  }();
  return accesses;
}

// The same accesses by three functions taking turns every two accesses: most accesses then follow
// another function's access to their word, so each also inserts into a function's footprint set.
const std::vector<Access>& random_accesses_of_three_functions() {
  static const std::vector<Access> accesses = [] {
    std::vector<Access> result = random_accesses();
    for (std::size_t i = 0; i < result.size(); ++i)
      result[i].function = static_cast<std::uint32_t>(i / 2 % 3);
    return result;
  }();
  return accesses;
}

void replay_random(benchmark::State& state, double rate, bool batched,
                   const std::vector<Access>& accesses = random_accesses()) {
  LocalityOptions options;
  options.sample_rate = rate;
  LocalityAnalyzer analyzer(options);
  for (const Access& access : accesses) analyzer.add(access);  // warm-up: every word seen once
  std::size_t next = 0;
  for (auto _ : state) {
    if (batched) {
      analyzer.add(std::span<const Access>(accesses).subspan(next, 4096));
    } else {
      for (std::size_t i = 0; i < 4096; ++i) analyzer.add(accesses[next + i]);
    }
    next = (next + 4096) & (accesses.size() - 1);
  }
  state.SetItemsProcessed(state.iterations() * 4096);
}

void BM_ExactRandom1MWords(benchmark::State& state) { replay_random(state, 1.0, false); }
void BM_ExactRandom1MWordsBatched(benchmark::State& state) { replay_random(state, 1.0, true); }
void BM_ExactRandom1MWordsThreeFunctionsBatched(benchmark::State& state) {
  replay_random(state, 1.0, true, random_accesses_of_three_functions());
}
void BM_Shards001Random1MWords(benchmark::State& state) { replay_random(state, 0.01, false); }
void BM_Shards001Random1MWordsBatched(benchmark::State& state) { replay_random(state, 0.01, true); }

void BM_TemporalCyclic1MWords50Sweeps(benchmark::State& state) {
  for (auto _ : state) {
    LocalityAnalyzer analyzer;
    for (int sweep = 0; sweep < 50; ++sweep)
      for (std::uint64_t w = 0; w < kWords; ++w) analyzer.add(Access{w * 8, 0, 0, 8, false});
    state.counters["TL"] = analyzer.finish().program.temporal;
  }
}

void BM_TemporalRandom1MWords(benchmark::State& state) {
  for (auto _ : state) {
    LocalityAnalyzer analyzer;
    std::mt19937_64 random(2);
    std::uniform_int_distribution<std::uint64_t> pick(0, kWords - 1);
    for (std::uint64_t i = 0; i < 20 * kWords; ++i) analyzer.add(Access{pick(random) * 512, 0, 0, 8, false});
    const auto report = analyzer.finish();
    state.counters["TL"] = report.program.temporal;
    state.counters["SL"] = report.program.spatial;
  }
}

}  // namespace

BENCHMARK(BM_ExactRandom1MWords);
BENCHMARK(BM_ExactRandom1MWordsBatched);
BENCHMARK(BM_ExactRandom1MWordsThreeFunctionsBatched);
BENCHMARK(BM_Shards001Random1MWords);
BENCHMARK(BM_Shards001Random1MWordsBatched);
BENCHMARK(BM_TemporalCyclic1MWords50Sweeps)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_TemporalRandom1MWords)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_MAIN();
