// MPI's post-start-complete-wait synchronization linked across ranks (Communication::window_epochs).
//
// A target exposes its window to a group of origins with MPI_Win_post and ends the exposure with
// MPI_Win_wait (or an MPI_Win_test that returned true) once every origin of the group called
// MPI_Win_complete; an origin opens an access epoch to a group of targets with MPI_Win_start, which
// may wait for their posts, and ends it with MPI_Win_complete. The collector traces a post and a start
// with their window and their group's members (runtime/mpi/measure.hpp: finish_window_group), a
// complete, wait and test with their window and whether they ended the epoch. MPI pairs them in
// order: the k-th start of an origin whose group holds a target goes with the k-th post of that target
// whose group holds the origin (MPI 4.0, 12.5.2), and the complete that ends that start's epoch with
// the wait (or test) that ends that post's.
//
// Two links for each such pair, each from the begin of the call that lets the other go (the other may
// return before this one does: a post sets a flag in the origin's memory, a complete counts itself
// done in the target's, and return):
//  - the post's begin -> the start's end; when the start returned before the post began (MPI lets
//    an implementation start lazily, the waiting then in the complete, as Open MPI's osc/rdma does),
//    -> the complete's end instead, which cannot return before the post;
//  - the complete's begin -> the wait's (or the test's that ended the exposure) end.
// A call that may have waited and is linked to none of its partners (its window or group not traced,
// a partner's call missing, a post whose exposure a test ended and no test said so) is counted in
// `unlinked`, never guessed.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/trace/messages.hpp"
#include "analysis/trace/window_locks.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {

enum class WindowEpochCall : std::uint8_t { none, post, start, complete, wait, test };
inline WindowEpochCall window_epoch_call(std::uint32_t kind, std::string_view name) {
  if (kind != static_cast<std::uint32_t>(format::SiteKind::mpi_one_sided_sync)) return WindowEpochCall::none;
  if (name == "MPI_Win_post") return WindowEpochCall::post;
  if (name == "MPI_Win_start") return WindowEpochCall::start;
  if (name == "MPI_Win_complete") return WindowEpochCall::complete;
  if (name == "MPI_Win_wait") return WindowEpochCall::wait;
  if (name == "MPI_Win_test") return WindowEpochCall::test;
  return WindowEpochCall::none;
}

// One operation event of such a call as the matching reads it. A post or start is traced as one
// event (its first member the partner, its group's size the match) and one more event for each
// further member (the match 0, at the call's end); a complete, wait or test as one (the match 1 when
// it ended the epoch).
struct WindowEpochEvent {
  bool known_window = false;  // false: the trace does not name its window
  WindowKey window;
  WindowEpochCall call = WindowEpochCall::none;
  std::int64_t partner = -1;  // a member's world rank (-1: not in MPI_COMM_WORLD's group, or none)
  std::int64_t match = 0;
  CallSide side;
};

// The links of a run's post-start-complete-wait synchronization, from every such event of the ranks
// it reads (in any order: the result depends only on the events). Each handover's `release` is the
// post or complete whose begin the edge leaves, `acquisition` the start, complete or wait whose end it
// reaches; `unlinked` the starts and waits (and the tests that ended an exposure) left without one.
LockHandovers link_window_epochs(std::vector<WindowEpochEvent> events);

}  // namespace parperf::analysis
