// A sum of times whose result does not depend on the order of its terms: each term is rounded once to
// 2^-32 ns (a fraction of a femtosecond) and the rounded terms are added as integers, exactly. What a
// figure summed over a run needs when it is summed by parts (graph_part.hpp): the wait states' and the
// path functions' totals, each term found by whichever part holds its location, come out the same
// to the bit whatever the parts, where a double sum depends on the order of its terms.
#pragma once

#include <cmath>
#include <cstdint>

namespace parperf::analysis {

class ExactSum {
 public:
  // A term in ns; one that is not a positive finite time (a wait of no time, a NaN) adds nothing. Terms
  // of up to 2^62 ns (146 years) are exact to 2^-32 ns.
  void add(double ns) {
    if (!(ns > 0)) return;
    ns = std::fmin(ns, kLargest);
    const double whole = std::floor(ns);
    whole_ += static_cast<std::uint64_t>(whole);
    fraction_ += static_cast<std::uint64_t>(std::nearbyint((ns - whole) * kUnitsPerNs));
    carry();
  }
  void add(const ExactSum& other) {
    whole_ += other.whole_;
    fraction_ += other.fraction_;
    carry();
  }
  double ns() const { return static_cast<double>(whole_) + static_cast<double>(fraction_) / kUnitsPerNs; }

  // Its two words, for a part to send another (part_reductions.hpp, PartBytes).
  std::uint64_t whole() const { return whole_; }
  std::uint64_t fraction() const { return fraction_; }
  static ExactSum of(std::uint64_t whole, std::uint64_t fraction) {
    ExactSum s;
    s.whole_ = whole;
    s.fraction_ = fraction;
    s.carry();
    return s;
  }

 private:
  static constexpr double kUnitsPerNs = 4294967296.0;        // 2^32
  static constexpr double kLargest = 4611686018427387904.0;  // 2^62
  void carry() {
    whole_ += fraction_ >> 32;
    fraction_ &= 0xffffffffu;
  }
  std::uint64_t whole_ = 0;     // ns
  std::uint64_t fraction_ = 0;  // 2^-32 ns, below 2^32 between calls
};

}  // namespace parperf::analysis
