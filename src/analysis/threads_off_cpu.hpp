// Whether the run's threads ran at all: a run whose threads spent most of their time off the CPU
// (more busy threads than cores, other load, or blocking) shows every other figure distorted (low
// efficiency, late ranks, long waits) by their turns for a core, not by the program's own losses.
// That is then the first thing a user must know, so it is one of the run's main findings, and the
// first when it dominates (docs/diagnosis.md, "Threads off the CPU").
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/findings.hpp"
#include "analysis/interval_tree.hpp"
#include "format/run_info.hpp"

namespace parperf::analysis {

// What the threads' OS CPU times say about the whole run, from each thread's outermost measured
// intervals (a team member's is the parallel regions it joined).
struct ThreadCpuTime {
  std::uint64_t threads = 0;  // threads whose OS CPU time was read
  double inside = 0;          // seconds: their time in the program, summed
  double on_cpu = 0;          // seconds: their OS CPU time (user + system) in it
  std::uint64_t entries = 0;  // of the intervals summed: whether the reads are dense enough
};

ThreadCpuTime thread_cpu_time(const IntervalTree& tree);

// The finding FindingKind::threads_off_cpu when less than half of the threads' time ran on a CPU
// and the reads can be trusted, with the remedy fewer_threads_than_cores when there were more threads
// than cores and they kept a quarter of the cores busy or more; `cores`: the host's (run.json), when every
// rank ran on that host; `execution_time`: the program's, for the cores the threads kept busy on average.
std::optional<Finding> threads_off_cpu(const ThreadCpuTime& time, double execution_time,
                                       const std::optional<format::HostCores>& cores);

// `finding` among the run's main findings: first when the threads were oversubscribed (more of them
// than cores, which they kept busy: the remedy fewer_threads_than_cores) and its share of the
// threads' time is larger than the share of the program's time the first of them names; else last,
// as an explanation of the others (threads that slept or blocked).
void add_threads_off_cpu(std::vector<Finding>& findings, Finding finding);

}  // namespace parperf::analysis
