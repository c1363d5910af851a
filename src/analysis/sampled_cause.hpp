// Why processors wait, from the samples (`parperf run --sample`): where a finding says some
// processors wait for others (at a barrier, a collective, a partner, the end of a loop), the samples
// of the same intervals show what the late ones did with the time the others spent waiting — the
// functions that take a much larger share of the late processors' samples than of the waiting ones'.
// With wall-clock samples the waiting processors' samples also show where they wait. A pure function of the
// sample profile; below the thresholds of finding_thresholds.hpp it names nothing rather than guess.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/call_path_profile.hpp"
#include "analysis/processors.hpp"

namespace parperf::analysis {

// A function as the comparison names it, with its share of each group's samples (self samples: the
// time spent in the function's own code, not in what it calls).
struct ComparedFunction {
  std::string function;
  std::string file;  // the line with most self samples in the compared intervals; empty if unknown
  std::int64_t line = 0;
  std::uint64_t late_samples = 0;
  std::uint64_t waiting_samples = 0;
  double late_share = 0;     // of the late processors' samples
  double waiting_share = 0;  // of the waiting processors' samples; 0 when they have none
};

struct SampledCause {
  Unit unit = Unit::thread;
  bool wall_clock = false;
  std::vector<std::size_t> intervals;  // tree indices: the samples of these and their subtrees
  std::vector<std::int64_t> late;      // the processors the others wait for
  std::vector<std::int64_t> waiting;
  std::uint64_t late_samples = 0;
  std::uint64_t waiting_samples = 0;
  // Where the late processors spend what the waiting ones do not: at least kBlameShareGap more of
  // their samples, most difference first, at most kMostBlamedFunctions.
  std::vector<ComparedFunction> functions;
  // Where the waiting processors sit (the runtime's or MPI library's wait), when their wall-clock
  // samples show it as clearly, in a function the late ones hardly run (kLateHardlyRuns; CPU-time
  // samples miss threads that sleep while they wait).
  std::optional<ComparedFunction> waiting_in;
};

// The comparison of `late` with `waiting` processors over the samples of `intervals` (tree indices)
// and their subtrees. None when the late processors have fewer than kMinSamplesToBlame samples there,
// or when no function tells them apart (a cause with no function says nothing).
std::optional<SampledCause> sampled_cause(const SampleProfile& samples, const IntervalTree& tree,
                                          const std::vector<std::size_t>& intervals,
                                          const std::vector<std::int64_t>& late,
                                          const std::vector<std::int64_t>& waiting, Unit unit);

// Splits processors by how long each waited: the late ones waited nearer the least than the most
// (two groups at the midpoint), the others are the waiting ones. Both empty when all waited alike.
struct WaitGroups {
  std::vector<std::int64_t> late;
  std::vector<std::int64_t> waiting;
};
WaitGroups split_by_wait(const std::vector<ProcessorValue>& waited);

}  // namespace parperf::analysis
