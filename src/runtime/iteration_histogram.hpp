// The distribution of one loop node's iteration (or chunk) times, beyond the count, sum, minimum
// and maximum of Node::iterations: the sum of squares (for the standard deviation) and a log-scale
// histogram of the bucket convention of format/iteration_buckets.hpp. Fixed size (48 counts), never
// one entry per iteration.
//
// Only loop nodes pay for it: the block is allocated on a node's first iteration (cold, like a new
// child node) and published with a release store, so the profile writer, reading at any moment from
// another thread, sees either no block or a zeroed one. Written by the owning thread only, so its
// words are Relaxed<> like the rest of the node: recording is a count-leading-zeros, a multiply,
// a floating-point multiply-add and one add, no locked instruction.
#pragma once

#include <cstdint>

#include "format/iteration_buckets.hpp"
#include "runtime/clock.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct IterationHistogram {
  // Σ d² in ticks², kept as a double: an integer would overflow after a few iterations of a second
  // (the TSC counts billions of ticks a second); 53 bits of mantissa keep the standard deviation of
  // any realistic loop (relative error ~1e-16 per addition). Converted to ns² when written.
  Relaxed<double> sum_squares_ticks;
  Relaxed<std::uint64_t> buckets[format::kIterationBuckets];

  // The bucket is chosen at the start-up estimate of the tick rate (approximate_ns, ~1%): a time
  // within 1% of a bucket edge may land in the neighbouring bucket. Sums and extremes stay exact.
  void record(std::uint64_t ticks) noexcept {
    const auto d = static_cast<double>(ticks);
    sum_squares_ticks.set(sum_squares_ticks.get() + d * d);
    buckets[format::iteration_bucket(approximate_ns(ticks))].add(1);
  }
};

// A new zeroed block in the runtime's private memory; null when out of memory (the node then keeps
// only its count, sum, minimum and maximum).
IterationHistogram* new_iteration_histogram() noexcept;

}  // namespace parperf::runtime
