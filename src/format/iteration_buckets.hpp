// The log-scale histogram of a loop's iteration (or chunk) times, defined once: the runtime counts
// each iteration into a bucket, the profile stores the counts (IterationDistributionRecord), and the
// analysis reads percentiles from them (DESIGN.md section 9; docs/report.md, "Loop balance").
//
// Buckets are of nanoseconds, two per power of two: bucket 0 holds every time below 2^10 ns
// (about 1 us); bucket b, 1 <= b < 47, holds [2^e, 1.5 * 2^e) when b is odd and [1.5 * 2^e, 2^(e+1))
// when b is even, with e = 10 + (b - 1) / 2; bucket 47 holds everything from 2^33 ns (about 8.6 s)
// on. A bucket is at most 1.5 times as wide as its lower edge, so a percentile read from one is
// within that of the truth; the smallest and largest times are kept exactly beside it.
//
// Header-only and constexpr: the runtime links no C++ library (docs/runtime.md).
#pragma once

#include <array>
#include <cstdint>

namespace parperf::format {

inline constexpr std::uint32_t kIterationBuckets = 48;
inline constexpr std::uint32_t kIterationFirstOctave = 10;  // bucket 1 begins at 2^10 ns

// The bucket of an iteration of `ns` nanoseconds: one count-leading-zeros, a shift and a compare.
constexpr std::uint32_t iteration_bucket(std::uint64_t ns) {
  if (ns < (std::uint64_t{1} << kIterationFirstOctave)) return 0;
  const auto octave = static_cast<std::uint32_t>(63 - __builtin_clzll(ns));
  const auto upper_half = static_cast<std::uint32_t>((ns >> (octave - 1)) & 1);
  const std::uint32_t bucket = 2 * (octave - kIterationFirstOctave) + 1 + upper_half;
  return bucket < kIterationBuckets ? bucket : kIterationBuckets - 1;
}

// The smallest time of bucket `b` in nanoseconds (0 for bucket 0).
constexpr std::uint64_t iteration_bucket_lower_ns(std::uint32_t b) {
  if (b == 0) return 0;
  const std::uint64_t octave_start = std::uint64_t{1} << (kIterationFirstOctave + (b - 1) / 2);
  return (b - 1) % 2 == 0 ? octave_start : octave_start + octave_start / 2;
}

// The first time past bucket `b` (the last bucket has none: it returns 0 there).
constexpr std::uint64_t iteration_bucket_upper_ns(std::uint32_t b) {
  return b + 1 < kIterationBuckets ? iteration_bucket_lower_ns(b + 1) : 0;
}

// One location's (or a merged) distribution of iteration times: the sum of their squares, for the
// standard deviation, and the bucket counts. The sum of squares is a 128-bit number of ns^2 (a
// thousand iterations of a second already pass 2^64), kept as its two halves.
struct IterationHistogram {
  std::uint64_t sum_squares_high = 0;
  std::uint64_t sum_squares_low = 0;
  std::array<std::uint64_t, kIterationBuckets> buckets{};

  // Σ d^2 in ns^2, as a floating-point number.
  constexpr long double sum_squares() const {
    return static_cast<long double>(sum_squares_high) * 18446744073709551616.0L +
           static_cast<long double>(sum_squares_low);
  }
  constexpr std::uint64_t count() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : buckets) n += c;
    return n;
  }
  constexpr void add(const IterationHistogram& more) {
    const std::uint64_t low = sum_squares_low + more.sum_squares_low;
    sum_squares_high += more.sum_squares_high + (low < sum_squares_low ? 1 : 0);
    sum_squares_low = low;
    for (std::uint32_t b = 0; b < kIterationBuckets; ++b) buckets[b] += more.buckets[b];
  }
  constexpr bool operator==(const IterationHistogram&) const = default;
};

}  // namespace parperf::format
