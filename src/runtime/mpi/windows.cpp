#include "runtime/mpi/windows.hpp"

#include <mutex>

#include "runtime/mpi/communicators.hpp"
#include "runtime/mpi/handle_table.hpp"
#include "runtime/plain_mutex.hpp"

namespace parperf::mpi {
namespace {

// Programs hold a few windows at a time; a freed window's place is taken by the next.
constinit HandleTable<GroupSlot, 256> g_windows;
runtime::PlainMutex g_windows_mutex;  // creation and freeing are collective and rare

}  // namespace

void register_window(MPI_Win win, MPI_Comm comm) noexcept {
  if (win == MPI_WIN_NULL) return;
  // Every member registers, in the order of creation: the slot's identity is the same on all.
  const GroupSlot group = register_group_slot(comm);
  if (!group.world_ranks) return;
  std::lock_guard lock(g_windows_mutex);
  // A full table leaves the window's fences unlinked and its calls without partners.
  g_windows.insert(win, group);
}

void unregister_window(MPI_Win win) noexcept {
  // The member list stays allocated: a reader may still hold it (a few bytes per window).
  std::lock_guard lock(g_windows_mutex);
  g_windows.remove(win);
}

std::int32_t window_slot(MPI_Win win) noexcept {
  const GroupSlot* group = g_windows.find(win);
  return group ? group->slot : -1;
}

std::int64_t window_world_rank(MPI_Win win, int rank) noexcept { return window_target(win, rank).world_rank; }

WindowTarget window_target(MPI_Win win, int rank) noexcept {
  const GroupSlot* group = g_windows.find(win);
  if (!group) return {};
  WindowTarget target;
  target.slot = group->slot;
  if (rank >= 0 && rank < group->size) target.world_rank = group->world_ranks[rank];  // not MPI_PROC_NULL
  return target;
}

}  // namespace parperf::mpi
