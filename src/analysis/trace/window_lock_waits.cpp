// Lock Competition, Late Post and Early Wait (wait_states.hpp), from the handovers of MPI windows' and
// OpenSHMEM's locks and the links of MPI's post-start-complete-wait.
#include <algorithm>

#include "analysis/trace/wait_tally.hpp"

namespace parperf::analysis {
namespace {

// A lock's acquisition waited for the latest release it was handed on from, until its end; a start's
// (or wait's) for the latest post (or complete) it was linked to, until its begin: the partner lets
// it go as the call begins (window_epochs.hpp).
void tally_handovers(const TraceRun& traces, const std::vector<LockHandover>& handovers, bool epochs,
                     WaitTally& tally) {
  const auto released = [&](const CallSide& s) { return epochs ? s.start_ns : s.end_ns; };
  // The handovers come by acquisition: a shared holder's acquisition after several shared holds
  // waited for the last of their releases, a start for the last of its targets' posts.
  for (std::size_t i = 0; i < handovers.size();) {
    const CallSide& acquisition = handovers[i].acquisition;
    const LockHandover* last = &handovers[i];
    std::size_t next = i + 1;
    for (; next < handovers.size(); ++next) {
      const CallSide& a = handovers[next].acquisition;
      if (a.rank != acquisition.rank || a.thread != acquisition.thread || a.index != acquisition.index) break;
      if (released(handovers[next].release) > released(last->release)) last = &handovers[next];
    }
    i = next;
    const double waited = std::min(released(last->release), acquisition.end_ns) - acquisition.start_ns;
    if (waited <= 0) continue;
    const WaitPattern pattern = !epochs           ? WaitPattern::lock_competition
                                : last->completes ? WaitPattern::early_wait
                                                  : WaitPattern::late_post;
    if (const RankTrace* rank = rank_trace(traces, acquisition.rank))
      tally.add(pattern, *rank, acquisition.thread, acquisition.site, waited, Culprit{last->release.rank});
  }
}

}  // namespace

void tally_window_lock_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally) {
  tally_handovers(traces, communication.window_locks.handovers, false, tally);
  tally_handovers(traces, communication.shmem_locks.handovers, false, tally);
  tally_handovers(traces, communication.window_epochs.handovers, true, tally);
}

}  // namespace parperf::analysis
