// Loop balance (DESIGN.md section 9): for every loop interval, how evenly its iterations (or, for
// an OpenMP work-sharing loop, its chunks) share the time, how evenly its processors do, and what
// its marked branches cost. Merged over all locations that ran the loop. docs/report.md, "Loop
// balance", defines every figure in the user's terms.
//
// A loop interval is one with iteration marks. Nested loops are analysed from the innermost out:
// loop_balance returns the loops innermost first. An outer loop's iteration time includes the whole
// of its inner loops, so its balance degree shows how the inner loops' totals vary per outer
// iteration, not their own iterations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/interval_tree.hpp"
#include "analysis/processors.hpp"
#include "format/iteration_buckets.hpp"

namespace parperf::analysis {

inline constexpr double kDefaultBalanceAlpha = 0.1;

// A marked branch of a loop (a child interval of kind `branch`), over all locations.
struct BranchFigures {
  IntervalIdentity identity;
  std::size_t interval = 0;     // index in the tree
  std::uint64_t frequency = 0;  // F: entries
  double total = 0;             // seconds
  double mean = 0;              // T = total / F
};

struct IterationPercentiles {
  double p50 = 0;  // seconds, read from the histogram (linear within a bucket)
  double p90 = 0;
  double p99 = 0;
};

// One processor's share of the loop.
struct ProcessorIterations {
  std::int64_t processor = 0;  // as the comparative figures number it
  std::uint64_t iterations = 0;
  double time = 0;  // T_p: seconds in the loop's iterations (rank unit: per thread, averaged)
};

struct LoopBalance {
  std::size_t interval = 0;  // index in the tree
  IntervalIdentity identity;
  // 0 for an innermost loop (no loop inside it); otherwise 1 + the depth of its deepest inner loop.
  std::uint32_t inner_loop_depth = 0;
  bool chunks = false;  // the marks are chunks of an OpenMP work-sharing loop, not iterations

  std::uint64_t count = 0;  // n iterations (or chunks) over all locations
  double total = 0;         // seconds
  double mean = 0;          // T_mean = total / n
  double min = 0;
  double max = 0;
  double degree = 0;           // D = max_i |T_i − T_mean| = max(max − T_mean, T_mean − min)
  double relative_degree = 0;  // D / T_mean (0 when T_mean is 0)
  double alpha = kDefaultBalanceAlpha;
  bool balanced = true;  // D ≤ α · T_mean

  // From the distribution (profiles of format 3.3 on, every location having one): the population
  // standard deviation of the iteration times, their coefficient of variation σ / T_mean, the
  // percentiles and the merged histogram (format/iteration_buckets.hpp).
  std::optional<double> std_dev;
  std::optional<double> variation;
  std::optional<IterationPercentiles> percentiles;
  std::optional<format::IterationHistogram> histogram;

  // Processors (those that executed the loop interval; a processor that got no iteration has T_p 0).
  std::vector<ProcessorIterations> processors;  // by processor number
  double processor_min = 0;                     // min_p T_p
  double processor_max = 0;                     // max_p T_p
  double processor_mean = 0;                    // mean_p T_p
  std::optional<std::int64_t> min_processor;
  std::optional<std::int64_t> max_processor;
  double processor_imbalance = 0;  // max_p T_p − min_p T_p
  // Processor time a perfect balance would save: Σ_p (max_q T_q − T_p) = n_p · (max − mean) over
  // processors; 0 with one processor (balancing its iterations changes nothing as it runs).
  double balance_gain = 0;

  std::vector<BranchFigures> branches;  // in order of first appearance
  std::optional<double> branch_cost;    // Σ_b F_b · T_b / Σ_b F_b, with branches
};

// The loop intervals of `tree`, innermost first (then in tree order). `unit` numbers the processors
// as the rest of the analysis does; `alpha` is the balance threshold.
std::vector<LoopBalance> loop_balance(const IntervalTree& tree, Unit unit,
                                      double alpha = kDefaultBalanceAlpha);

// The percentile `q` (0..1) of the iteration times in `histogram`, in nanoseconds: linear within the
// bucket that holds it, whose edges are narrowed to [min_ns, max_ns], the exact extremes.
double histogram_percentile_ns(const format::IterationHistogram& histogram, double q, std::uint64_t min_ns,
                               std::uint64_t max_ns);

}  // namespace parperf::analysis
