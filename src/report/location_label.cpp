#include "report/location_label.hpp"

#include <fmt/format.h>

namespace parperf::report {

std::uint32_t RunLocations::threads_of(std::int64_t rank) const {
  const auto it = rank_threads.find(rank);
  return it == rank_threads.end() ? 0 : it->second;
}

RunLocations run_locations(const analysis::TraceAnalysis& a) {
  RunLocations run;
  if (a.graph)
    for (const analysis::GraphLocation& l : a.graph->locations) ++run.rank_threads[l.rank];
  run.processes = a.processes || run.rank_threads.size() > 1;
  return run;
}

std::string location_label(std::int64_t rank, std::optional<std::uint32_t> thread, bool processes,
                           std::uint32_t rank_threads) {
  const bool show_rank = processes || !thread;
  const bool show_thread = thread && (rank_threads > 1 || !show_rank);
  if (show_rank && show_thread) return fmt::format("rank {} thread {}", rank, *thread);
  if (show_rank) return fmt::format("rank {}", rank);
  return fmt::format("thread {}", *thread);
}

std::string location_label(const RunLocations& run, std::int64_t rank, std::optional<std::uint32_t> thread) {
  return location_label(rank, thread, run.processes, run.threads_of(rank));
}

}  // namespace parperf::report
