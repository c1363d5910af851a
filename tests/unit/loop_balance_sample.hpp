// A loop's balance as the analysis gives it (analysis/loop_balance.hpp), for the report tests: the
// loop whose iteration i takes (i + 1) ms, i = 0..19, run by one processor, with one branch.
#pragma once

#include "analysis/loop_balance.hpp"

namespace parperf::test {

inline analysis::LoopBalance sample_loop_balance(const analysis::IntervalIdentity& identity) {
  analysis::LoopBalance loop;
  loop.identity = identity;
  loop.count = 20;
  loop.total = 0.21;
  loop.mean = 0.0105;
  loop.min = 0.001;
  loop.max = 0.020;
  loop.degree = 0.0095;
  loop.relative_degree = 0.0095 / 0.0105;
  loop.balanced = false;
  loop.std_dev = 0.00577;
  loop.variation = 0.55;
  loop.percentiles = analysis::IterationPercentiles{0.0105, 0.0185, 0.0199};
  format::IterationHistogram histogram;
  histogram.buckets[20] = 1;
  histogram.buckets[47] = 2;
  loop.histogram = histogram;
  loop.processors = {analysis::ProcessorIterations{0, 20, 0.21}};
  loop.processor_min = loop.processor_max = loop.processor_mean = 0.21;
  loop.min_processor = loop.max_processor = 0;
  analysis::BranchFigures branch;
  branch.identity.name = "cheap";
  branch.frequency = 3;
  branch.mean = 0.002;
  branch.total = 0.006;
  loop.branches = {branch};
  loop.branch_cost = 0.003;
  return loop;
}

}  // namespace parperf::test
