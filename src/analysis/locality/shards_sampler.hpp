// SHARDS fixed-rate spatial sampling (Waldspurger et al., FAST'15): a word is sampled iff
// hash(word) mod P < T, so every access to a sampled word is kept and reuse distances measured in
// the sampled stream, scaled by 1/R (R = T/P), estimate the true ones. P = 2^24; the hash is
// MurmurHash3's 64-bit finalizer, unrelated to the Fibonacci hashing of WordTable (a related hash
// would crowd all sampled words into a few table slots).
#pragma once

#include <cmath>
#include <cstdint>

namespace parperf::locality {

class ShardsSampler {
 public:
  static constexpr std::uint64_t kModulus = std::uint64_t{1} << 24;  // P

  // rate in (0, 1]; the threshold T is round(rate * P), at least 1.
  explicit ShardsSampler(double rate) {
    const double threshold = std::round(rate * static_cast<double>(kModulus));
    threshold_ = threshold < 1 ? 1 : static_cast<std::uint64_t>(threshold);
    if (threshold_ > kModulus) threshold_ = kModulus;
  }

  bool exact() const { return threshold_ == kModulus; }
  double rate() const { return static_cast<double>(threshold_) / static_cast<double>(kModulus); }

  bool sampled(std::uint64_t word) const { return (mix(word) & (kModulus - 1)) < threshold_; }

 private:
  static std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
  }

  std::uint64_t threshold_ = kModulus;
};

}  // namespace parperf::locality
