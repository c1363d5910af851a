// A finding's sampled cause (analysis/sampled_cause.hpp) in words, for the findings' sentences and
// the `--functions` listing: "thread 0 spends 80 % of its samples in f (late.c:12), which threads 1-3
// hardly run (2 %); threads 1-3 wait in __kmp_hyper_barrier_gather (75 % of their samples)".
#pragma once

#include <string>

#include "analysis/sampled_cause.hpp"

namespace parperf::report {

std::string sampled_cause_text(const analysis::SampledCause& cause);

// "thread 0", "threads 1-3", "rank 2", "ranks 0, 2".
std::string processors_text(analysis::Unit unit, const std::vector<std::int64_t>& processors);

}  // namespace parperf::report
