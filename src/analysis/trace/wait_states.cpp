#include "analysis/trace/wait_states.hpp"

#include <stdexcept>

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
    case WaitPattern::wait_at_fence:
      return "wait_at_fence";
    case WaitPattern::lock_competition:
      return "lock_competition";
    case WaitPattern::late_post:
      return "late_post";
    case WaitPattern::early_wait:
      return "early_wait";
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
    case WaitPattern::wait_at_fence:
      return "Wait at Fence";
    case WaitPattern::lock_competition:
      return "Lock Competition";
    case WaitPattern::late_post:
      return "Late Post";
    case WaitPattern::early_wait:
      return "Early Wait";
  }
  return "unknown";
}

WaitStates find_wait_states(const TraceRun& traces, const Communication& communication) {
  WaitTally tally;
  tally_message_waits(traces, communication, tally);
  tally_collective_waits(traces, communication, tally);
  tally_openmp_waits(traces, tally);
  tally_window_lock_waits(traces, communication, tally);
  return tally.result();
}

WaitStates find_wait_states(const TraceRun& own, const Communication& communication, PartExchange& exchange) {
  // A message or an instance that touches several parts is on each of them, but a wait is tallied only
  // by the part that holds the waiting rank (rank_trace finds no other in `own`).
  WaitTally mine;
  tally_message_waits(own, communication, mine);
  tally_collective_waits(own, communication, mine);
  tally_openmp_waits(own, mine);
  tally_window_lock_waits(own, communication, mine);
  PartBytes bytes;
  mine.write(bytes);
  WaitTally run;
  try {
    for (const std::vector<std::uint8_t>& each : exchange.gather_all(bytes.bytes())) {
      PartBytesReader in(each);
      run.add(in);
    }
  } catch (const std::logic_error&) {
    throw std::runtime_error("parallel trace analysis: a part sent its wait states damaged");
  }
  return run.result();
}

}  // namespace parperf::analysis
