// Access streams with known locality, shared by the locality tests.
#pragma once

#include <cstdint>
#include <random>

#include "analysis/locality/locality_analyzer.hpp"

namespace parperf::locality::test {

inline Access load(std::uint64_t word, std::uint32_t function = 0, std::uint16_t thread = 0) {
  return Access{word * 8, function, thread, 8, false};
}

// `sweeps` passes over words 0..words-1 in order.
inline void add_cyclic(LocalityAnalyzer& analyzer, std::uint64_t words, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (std::uint64_t w = 0; w < words; ++w) analyzer.add(load(w));
}

// `count` accesses to words drawn uniformly from 0..words-1, spaced 64 words apart so that no
// access has a short stride.
inline void add_uniform_random(LocalityAnalyzer& analyzer, std::uint64_t words, std::uint64_t count,
                               std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::uint64_t> pick(0, words - 1);
  for (std::uint64_t i = 0; i < count; ++i) analyzer.add(load(pick(random) * 64));
}

}  // namespace parperf::locality::test
