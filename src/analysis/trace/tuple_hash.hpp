// A hash of a tuple of integers, field by field, for the analysis's tables found only by their keys
// (never walked in order): hashed, not a tree of tuples compared field by field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>

namespace parperf::analysis {

struct TupleHash {
  template <class... T>
  std::size_t operator()(const std::tuple<T...>& key) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    std::apply(
        [&](const auto&... field) {
          ((h = (h ^ static_cast<std::uint64_t>(field)) * 0xFF51AFD7ED558CCDull, h ^= h >> 32), ...);
        },
        key);
    return static_cast<std::size_t>(h);
  }
};

}  // namespace parperf::analysis
