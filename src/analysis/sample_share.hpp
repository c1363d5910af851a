// How sure a sampled share is. A function's share of an interval's samples estimates the share of
// the time it took; with n samples that estimate is uncertain by about sqrt(p(1 - p) / n), which a
// report must say before a user acts on a difference of a few points. The interval is Wilson's
// score interval at 95 %: it stays inside 0..1 and is honest for few samples and shares near 0 or 1,
// where the normal approximation is not.
//
// It treats each sample as an independent observation of where the time went. Timers that fire only
// at the scheduler tick (POSIX CPU-time timers) take samples that are not independent of the
// program's own rhythm: the real error can then be larger (docs/report.md, "samples").
#pragma once

#include <cstdint>

namespace parperf::analysis {

struct ShareInterval {
  double share = 0;  // part / whole, 0..1
  double low = 0, high = 0;
  double half_width() const { return (high - low) / 2; }
};

// `part` of `whole` samples (part <= whole); all zero when there are no samples.
ShareInterval share_interval(std::uint64_t part, std::uint64_t whole);

// Whether the samples tell a larger share from a smaller one: their intervals do not overlap.
inline bool tells_apart(const ShareInterval& larger, const ShareInterval& smaller) {
  return larger.low > smaller.high;
}

}  // namespace parperf::analysis
