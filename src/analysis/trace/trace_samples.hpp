// The call-path samples of a run's event traces (`parperf run --trace --sample`), per thread, ready
// to be shown on a timeline: each sample's time corrected onto rank 0's clock like every event of the
// merged timeline, its call stack named through the same rank's profile (its `call_paths` section,
// where the trace's node index points) and the symbolizer, and the interval the thread was in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

// One frame of a sampled stack. Functions inlined at one address are frames of their own, sharing
// the module and address.
struct SampleStackFrame {
  std::string function;
  std::string file;  // empty if unknown
  std::int64_t line = 0;
  std::string module;         // the executable or library; empty when no module held the address
  std::uint64_t address = 0;  // module-relative (absolute without a module)
};

// One interval of a sample's path as the profile holds it: for exports that name sites (OTF2's regions).
struct SampleInterval {
  std::uint32_t site = 0;  // the rank's profile site id
  std::int64_t value = 0;
};

// A distinct (rank, thread, leaf node): the interval the samples were taken in and their stack.
struct SampleStack {
  std::vector<std::string> interval_path;  // the interval names from the program down, "name=value"
  std::vector<SampleInterval> intervals;   // the same intervals, by site and value
  std::uint32_t interval_node = 0;         // the interval's node in the thread's profile section
  std::vector<SampleStackFrame> frames;    // outermost first, the interrupted function last
};

struct TraceSampleEntry {
  double local_ns = 0;  // on the rank's own clock, since its start
  double time_ns = 0;   // corrected: on rank 0's clock, since rank 0's start
  std::uint32_t weight = 1;
  std::size_t stack = 0;  // in TraceSamples::stacks
};

struct ThreadTraceSamples {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  std::vector<TraceSampleEntry> samples;  // in the order taken
  double period_ns = 0;    // what a sample of weight 1 stands for (the profile's; 0 without one)
  std::uint64_t lost = 0;  // samples (weights) the thread's ring could not hold: not in the trace
  // Samples whose node the profile does not have (a profile missing, or older than the trace's end).
  std::uint64_t unresolved = 0;
};

struct TraceSamples {
  std::vector<SampleStack> stacks;
  std::vector<ThreadTraceSamples> threads;  // by rank, then thread
  std::uint64_t samples = 0;                // Σ weights of the samples held
  std::uint64_t lost = 0;
  // Samples whose node no profile holds, modules that could not be read (lost samples are
  // load_traces' warnings: every reader of the traces hears of them).
  std::vector<std::string> warnings;
};

// Decodes every sample block of `traces` (one per thread at a time from the files) and resolves
// each sample's stack once per distinct leaf. Throws format::FormatError naming the file when a
// sample block is damaged.
TraceSamples load_trace_samples(const TraceRun& traces);

}  // namespace parperf::analysis
