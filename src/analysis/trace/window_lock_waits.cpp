// Lock Competition (wait_states.hpp), from the handovers of MPI windows' and OpenSHMEM's locks.
#include <algorithm>

#include "analysis/trace/wait_tally.hpp"

namespace parperf::analysis {
namespace {

void tally_handovers(const TraceRun& traces, const std::vector<LockHandover>& handovers, WaitTally& tally) {
  // The handovers come by acquisition: a shared holder's acquisition after several shared holds
  // waited for the last of their releases.
  for (std::size_t i = 0; i < handovers.size();) {
    const CallSide& acquisition = handovers[i].acquisition;
    const CallSide* last = &handovers[i].release;
    std::size_t next = i + 1;
    for (; next < handovers.size(); ++next) {
      const CallSide& a = handovers[next].acquisition;
      if (a.rank != acquisition.rank || a.thread != acquisition.thread || a.index != acquisition.index) break;
      if (handovers[next].release.end_ns > last->end_ns) last = &handovers[next].release;
    }
    i = next;
    const double waited = std::min(last->end_ns, acquisition.end_ns) - acquisition.start_ns;
    if (waited <= 0) continue;
    if (const RankTrace* rank = rank_trace(traces, acquisition.rank))
      tally.add(WaitPattern::lock_competition, *rank, acquisition.thread, acquisition.site, waited,
                Culprit{last->rank});
  }
}

}  // namespace

void tally_window_lock_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally) {
  tally_handovers(traces, communication.window_locks.handovers, tally);
  tally_handovers(traces, communication.shmem_locks.handovers, tally);
}

}  // namespace parperf::analysis
