// A thread that was still running when its profile was written (parperf_flush, a fatal signal on
// another thread, exit() while threads run) is read node by node while it runs. The nodes are
// written in pre-order, each parent before the intervals nested in it, so an entry that ended after
// its parent was read is in the nested node and not in the parent: the nested one's time can exceed
// its parent's by what the thread did between the two readings (a few µs, or a scheduling period on a
// loaded machine). The report refused such a profile as impossible (profile_invariants.hpp), and so a
// crashed program's last flushed profile, on a loaded machine about one time in ten.
//
// lift_snapshot_skew raises such a parent's time to its nested intervals' and operations' (the
// time the thread had spent in it by the later reading): its open entry's time if one was open, else
// its sum. Only for threads the writer marked as read while running (ThreadRecord::read_running,
// since format 3.6), whose nodes were read at different moments; a thread that had ended, the
// writing thread itself and every thread of an older file were read at rest, and every invariant
// stays strict for them. What a damaged file puts
// beyond any skew still breaks the thread's lifetime, which is not lifted. Pure.
#pragma once

#include <cstdint>

#include "format/profile.hpp"

namespace parperf::analysis {

struct SnapshotLift {
  std::uint64_t nodes = 0;    // nodes whose time was raised
  std::uint64_t most_ns = 0;  // the largest raise
};

// Lifts `thread`'s nodes when it was read while running; nothing otherwise.
SnapshotLift lift_snapshot_skew(format::Thread& thread);

}  // namespace parperf::analysis
