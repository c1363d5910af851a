// Locks of other processes handed on from one holder to the next (Communication::window_locks,
// shmem_locks): MPI windows' locks and OpenSHMEM's.
//
// An exclusive lock of a window's rank is held by one process at a time: its MPI_Win_lock returns
// after the previous holder's MPI_Win_unlock released it, and so does a shared lock's after the last
// exclusive holder's. MPI_Win_lock_all takes every rank's lock shared. The collector traces each lock
// and unlock with its window and each lock with its type (format::WindowLockType), so the holds of
// one rank's lock can be put in the order they were granted, by when each MPI_Win_lock returned, and
// each linked to the releases it waited for: an exclusive hold to the previous exclusive holder's, or
// to every shared hold granted since; a shared hold to the previous exclusive holder's.
//
// MPI lets an implementation take a lock lazily (MPI_Win_lock returns at once and the lock is taken
// by the first access or the unlock, as MPICH does): a hold granted, by its MPI_Win_lock's return,
// before the previous holder began to release the lock says so, and is not linked; its waiting, in
// whichever call it is, is taken as measured, as is every lock whose window the trace does not name
// (a collector before windows were traced, a window created before it started). Counted, never
// guessed (unlinked).
//
// OpenSHMEM's locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock) are exclusive locks of one
// process each, handed on alike: the collector traces each call with its lock's identity, the same
// on every PE (src/runtime/shmem/lock_identity.hpp).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/trace/messages.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {

// What a call does to a lock of another process: an MPI window's (kind mpi_one_sided_sync:
// MPI_Win_lock, _lock_all, MPI_Win_unlock, _unlock_all), an OpenSHMEM lock (kind shmem_lock:
// shmem_set_lock; shmem_test_lock, which may not take it (its match is then 0); shmem_clear_lock).
enum class WindowLockCall : std::uint8_t { none, lock, try_lock, unlock };
inline WindowLockCall window_lock_call(std::uint32_t kind, std::string_view name) {
  if (format::takes_window_lock(kind, name)) return WindowLockCall::lock;
  if (kind == static_cast<std::uint32_t>(format::SiteKind::mpi_one_sided_sync) &&
      (name == "MPI_Win_unlock" || name == "MPI_Win_unlock_all"))
    return WindowLockCall::unlock;
  if (kind != static_cast<std::uint32_t>(format::SiteKind::shmem_lock)) return WindowLockCall::none;
  if (name.ends_with("set_lock")) return WindowLockCall::lock;
  if (name.ends_with("test_lock")) return WindowLockCall::try_lock;
  if (name.ends_with("clear_lock")) return WindowLockCall::unlock;
  return WindowLockCall::none;
}

// A window as every member knows it (its communicator's identity in the profiles).
struct WindowKey {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  auto operator<=>(const WindowKey&) const = default;
};
// OpenSHMEM's locks, as if one window's: each lock is a rank's lock of it, its `target` the lock's
// identity (format::kShmemLockInImage), and every lock exclusive. No communicator has this key: a
// members hash of 0 is no set of members.
inline constexpr WindowKey kShmemLocks{0, 0xffffffffu};

// One lock or unlock call as the matching reads it.
struct WindowLockEvent {
  bool known_window = false;  // false: the trace does not name its window
  WindowKey window;
  // World rank whose lock it takes or releases; -1 every rank's (_all). OpenSHMEM: the lock's identity.
  std::int64_t target = -1;
  WindowLockCall call = WindowLockCall::none;  // lock (a try_lock that took it) or unlock
  bool shared = false;                         // a lock's type
  CallSide side;
};

// The handovers of a run's locks of one family, from every lock and unlock call of the ranks it reads
// (in any order: the result depends only on the calls). `unlinked`: the lock calls that may have
// waited for a holder and are not linked to one (see above).
LockHandovers hand_over_window_locks(std::vector<WindowLockEvent> events);
// The same for MPI windows' locks and OpenSHMEM's (kShmemLocks), apart.
void hand_over_locks(std::vector<WindowLockEvent> events, LockHandovers& windows, LockHandovers& shmem);

}  // namespace parperf::analysis
