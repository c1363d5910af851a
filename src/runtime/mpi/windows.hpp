// The one-sided windows the collector knows: for each, the slot its fences are matched in across
// the window's group (an instance a fence, numbered like a communicator's collectives), and its
// members' MPI_COMM_WORLD ranks (a one-sided call's target is a rank of the window's group).
//
// A fence that may end an access epoch completes only once every member has entered it (MPI 4.0,
// 12.5.1: "a fence call usually entails a barrier synchronization"): the event trace records it
// with its window's slot as the communicator and its number among the window's fences, so the
// analysis links it as it links a barrier. The slot is the window's own, not its communicator's:
// a window's fences and its communicator's collectives are ordered apart.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace parperf::mpi {

// After MPI_Win_create / _allocate / _allocate_shared / _create_dynamic returned `win` over `comm`
// (collective over `comm`, like the registration). Not on a hot path: it may allocate.
void register_window(MPI_Win win, MPI_Comm comm) noexcept;
// Before MPI_Win_free.
void unregister_window(MPI_Win win) noexcept;

// The window's fence slot, -1 when the window is not known (created before the collector started,
// or the table is full). Lock-free.
std::int32_t window_slot(MPI_Win win) noexcept;

// The MPI_COMM_WORLD rank of `rank` in the window's group; -1 when unknown (an unknown window,
// MPI_PROC_NULL, out of range). Lock-free: a one-sided call's partner costs a table lookup, not a
// query of the window's group.
std::int64_t window_world_rank(MPI_Win win, int rank) noexcept;

// Both in one lookup, for a one-sided call: its window's slot and its target's world rank.
struct WindowTarget {
  std::int32_t slot = -1;
  std::int64_t world_rank = -1;
};
WindowTarget window_target(MPI_Win win, int rank) noexcept;

}  // namespace parperf::mpi
