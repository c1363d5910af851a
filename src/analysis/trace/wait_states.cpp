#include "analysis/trace/wait_states.hpp"

#include "analysis/trace/wait_tally.hpp"

namespace parperf::analysis {

std::string_view pattern_key(WaitPattern pattern) {
  switch (pattern) {
    case WaitPattern::late_sender:
      return "late_sender";
    case WaitPattern::late_receiver:
      return "late_receiver";
    case WaitPattern::wait_at_barrier:
      return "wait_at_barrier";
    case WaitPattern::wait_at_nxn:
      return "wait_at_nxn";
    case WaitPattern::late_broadcast:
      return "late_broadcast";
    case WaitPattern::early_reduce:
      return "early_reduce";
    case WaitPattern::omp_barrier:
      return "omp_barrier";
    case WaitPattern::omp_lock:
      return "omp_lock";
  }
  return "unknown";
}

std::string_view pattern_title(WaitPattern pattern) {
  switch (pattern) {
    case WaitPattern::late_sender:
      return "Late Sender";
    case WaitPattern::late_receiver:
      return "Late Receiver";
    case WaitPattern::wait_at_barrier:
      return "Wait at Barrier";
    case WaitPattern::wait_at_nxn:
      return "Wait at N x N";
    case WaitPattern::late_broadcast:
      return "Late Broadcast";
    case WaitPattern::early_reduce:
      return "Early Reduce";
    case WaitPattern::omp_barrier:
      return "OpenMP barrier";
    case WaitPattern::omp_lock:
      return "OpenMP lock";
  }
  return "unknown";
}

const RankTrace* rank_trace(const TraceRun& traces, std::int64_t rank) {
  for (const RankTrace& r : traces.ranks)
    if (r.rank == rank) return &r;
  return nullptr;
}

WaitStates find_wait_states(const TraceRun& traces, const Communication& communication) {
  WaitTally tally;
  tally_message_waits(traces, communication, tally);
  tally_collective_waits(traces, communication, tally);
  tally_openmp_waits(traces, tally);
  return tally.result();
}

}  // namespace parperf::analysis
