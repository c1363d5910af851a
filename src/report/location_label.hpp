// How every report names a location of a traced run: "rank 3", "thread 1" or "rank 3 thread 1". One
// rule, so the critical path, the root causes of waiting, the wait states and the findings name a
// location alike: the rank when the run is of processes (several ranks, or MPI or OpenSHMEM ran), the
// thread when its rank has several threads, or when the rank is not named (a single program).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "analysis/trace/trace_analysis.hpp"

namespace parperf::report {

struct RunLocations {
  bool processes = false;                              // TraceAnalysis::processes
  std::map<std::int64_t, std::uint32_t> rank_threads;  // each rank's traced threads
  std::uint32_t threads_of(std::int64_t rank) const;   // 0 when unknown
};

// From the analysis's activity graph (its locations) and whether its ranks are processes.
RunLocations run_locations(const analysis::TraceAnalysis& analysis);

// `thread` absent: a location that is a whole rank (an MPI partner), named by its rank.
std::string location_label(std::int64_t rank, std::optional<std::uint32_t> thread, bool processes,
                           std::uint32_t rank_threads);
std::string location_label(const RunLocations& run, std::int64_t rank, std::optional<std::uint32_t> thread);

}  // namespace parperf::report
