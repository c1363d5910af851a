// OpenMP barrier and lock waits (wait_states.hpp): the waiting the OpenMP collector recorded with
// each barrier, lock and critical-section operation on the thread that waited (extract_calls).
// The trace does not say which thread the others waited for.
#include "analysis/trace/wait_tally.hpp"

namespace parperf::analysis {

void tally_openmp_waits(const std::vector<RankCalls>& ranks, WaitTally& tally) {
  for (const RankCalls& rank : ranks)
    for (const ThreadWait& w : rank.openmp_waits)
      tally.add(w.barrier ? WaitPattern::omp_barrier : WaitPattern::omp_lock, w.rank, w.thread, w.site,
                w.waited_ns, std::nullopt);
}

}  // namespace parperf::analysis
