#include "export/otf2_rma.hpp"

#include <algorithm>

#include "format/site_kinds.hpp"

namespace parperf::exports {

namespace {

using format::SiteKind;

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

RmaCall transfer(RmaTransfer kind, bool shmem, bool blocking) {
  RmaCall c;
  c.action = RmaAction::transfer;
  c.transfer = kind;
  c.shmem = shmem;
  c.blocking = blocking;
  return c;
}

RmaCall atomic(OTF2_RmaAtomicType type, bool fetches, bool shmem) {
  RmaCall c = transfer(RmaTransfer::atomic, shmem, shmem);  // OpenSHMEM's atomics return complete
  c.atomic = type;
  c.fetches = fetches;
  return c;
}

RmaCall action(RmaAction a, bool shmem, bool completes = false) {
  RmaCall c;
  c.action = a;
  c.shmem = shmem;
  c.completes = completes;
  return c;
}

RmaCall collective(OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, bool shmem, bool completes) {
  RmaCall c = action(RmaAction::collective, shmem, completes);
  c.collective = op;
  c.level = level;
  return c;
}

RmaCall epoch(RmaEpoch e) {
  RmaCall c = action(RmaAction::group_sync, false, e == RmaEpoch::complete);
  c.epoch = e;
  c.level = OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY;
  return c;
}

RmaCall mpi_one_sided(std::string_view name) {
  if (name == "MPI_Put" || name == "MPI_Rput") return transfer(RmaTransfer::put, false, false);
  if (name == "MPI_Get" || name == "MPI_Rget") return transfer(RmaTransfer::get, false, false);
  if (name == "MPI_Accumulate" || name == "MPI_Raccumulate")
    return atomic(OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, false, false);
  if (name == "MPI_Get_accumulate" || name == "MPI_Rget_accumulate" || name == "MPI_Fetch_and_op")
    return atomic(OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, true, false);
  if (name == "MPI_Compare_and_swap") return atomic(OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, true, false);
  return {};
}

RmaCall mpi_one_sided_sync(std::string_view name) {
  if (name == "MPI_Win_fence")
    return collective(OTF2_COLLECTIVE_OP_BARRIER, OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY,
                      false, true);
  if (name == "MPI_Win_lock" || name == "MPI_Win_lock_all") return action(RmaAction::lock, false);
  if (name == "MPI_Win_unlock" || name == "MPI_Win_unlock_all") return action(RmaAction::unlock, false, true);
  if (name == "MPI_Win_flush" || name == "MPI_Win_flush_all" || name == "MPI_Win_flush_local" ||
      name == "MPI_Win_flush_local_all")
    return action(RmaAction::flush, false, true);
  if (name == "MPI_Win_post") return epoch(RmaEpoch::post);
  if (name == "MPI_Win_start") return epoch(RmaEpoch::start);
  if (name == "MPI_Win_complete") return epoch(RmaEpoch::complete);
  if (name == "MPI_Win_wait" || name == "MPI_Win_test") return epoch(RmaEpoch::wait);
  return {};  // MPI_Win_sync: a memory barrier of the caller's own copy
}

// OpenSHMEM's atomic memory operations by name: 1.4's (shmem_int_atomic_fetch_add) and the
// deprecated ones (shmem_int_fadd).
RmaCall shmem_atomic(std::string_view name) {
  if (contains(name, "compare_swap") || contains(name, "cswap"))
    return atomic(OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, true, true);
  if (contains(name, "fetch_add") || contains(name, "fadd"))
    return atomic(OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ADD, true, true);
  if (contains(name, "fetch_inc") || contains(name, "finc"))
    return atomic(OTF2_RMA_ATOMIC_TYPE_FETCH_AND_INCREMENT, true, true);
  if (contains(name, "swap")) return atomic(OTF2_RMA_ATOMIC_TYPE_SWAP, true, true);
  if (contains(name, "fetch")) return atomic(OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, true, true);
  if (name.ends_with("_inc")) return atomic(OTF2_RMA_ATOMIC_TYPE_INCREMENT, false, true);
  return atomic(OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, false, true);  // add, set, and, or, xor
}

}  // namespace

RmaCall rma_call(std::uint32_t kind, std::string_view name) {
  switch (static_cast<SiteKind>(kind)) {
    case SiteKind::mpi_one_sided:
      return mpi_one_sided(name);
    case SiteKind::mpi_one_sided_sync:
      return mpi_one_sided_sync(name);
    case SiteKind::shmem_put:
      return transfer(RmaTransfer::put, true, true);
    case SiteKind::shmem_get:
      return transfer(RmaTransfer::get, true, true);
    case SiteKind::shmem_put_nbi:
      return transfer(RmaTransfer::put, true, false);
    case SiteKind::shmem_get_nbi:
      return transfer(RmaTransfer::get, true, false);
    case SiteKind::shmem_atomic:
      return shmem_atomic(name);
    case SiteKind::shmem_barrier:
      // A barrier completes the caller's transfers and synchronizes; a sync only synchronizes.
      if (contains(name, "barrier"))
        return collective(OTF2_COLLECTIVE_OP_BARRIER,
                          OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, true, true);
      return collective(OTF2_COLLECTIVE_OP_BARRIER, OTF2_RMA_SYNC_LEVEL_PROCESS, true, false);
    case SiteKind::shmem_broadcast:
      return collective(OTF2_COLLECTIVE_OP_BCAST, OTF2_RMA_SYNC_LEVEL_NONE, true, false);
    case SiteKind::shmem_reduction:
      return collective(OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_RMA_SYNC_LEVEL_NONE, true, false);
    case SiteKind::shmem_all_to_all:
      return collective(OTF2_COLLECTIVE_OP_ALLTOALL, OTF2_RMA_SYNC_LEVEL_NONE, true, false);
    case SiteKind::shmem_gather_scatter:
      return collective(
          contains(name, "fcollect") ? OTF2_COLLECTIVE_OP_ALLGATHER : OTF2_COLLECTIVE_OP_ALLGATHERV,
          OTF2_RMA_SYNC_LEVEL_NONE, true, false);
    case SiteKind::shmem_memory_sync:  // quiet completes; fence only orders
      return contains(name, "quiet") ? action(RmaAction::flush, true, true) : RmaCall{};
    case SiteKind::shmem_lock:
      if (contains(name, "clear_lock")) return action(RmaAction::unlock, true);
      return action(RmaAction::lock, true);
    case SiteKind::shmem_point_sync:
      return contains(name, "wait") ? action(RmaAction::wait_change, true) : RmaCall{};
    default:
      return {};
  }
}

std::optional<OTF2_RmaWinRef> Otf2RmaLocation::window_of(Otf2Communicators& comms, std::int64_t rank,
                                                         const RmaCall& call,
                                                         const format::TraceEvent& e) const {
  if (call.shmem)  // the symmetric heap of every PE, or of a collective's active set
    return comms.window(comms.shmem_communicator(call.action == RmaAction::collective ? e.match : 0));
  if (!comms.names_mpi_communicator(rank, e.communicator)) return std::nullopt;
  return comms.window(comms.mpi_communicator(rank, e.communicator));
}

void Otf2RmaLocation::begin(Otf2Records& out, Otf2Communicators& comms, std::int64_t rank,
                            const RmaCall& call, const format::TraceEvent& e, OTF2_TimeStamp time) {
  blocking_id_.reset();
  if (call.action == RmaAction::collective) {
    // Only a fence that synchronizes names its window; the others are plain regions.
    if (window_of(comms, rank, call, e)) out(OTF2_EvtWriter_RmaCollectiveBegin(out.writer, nullptr, time));
    return;
  }
  if (call.epoch == RmaEpoch::post || call.epoch == RmaEpoch::start) {
    members_.clear();
    if (e.partner >= 0) members_.push_back(e.partner);
    collecting_ = true;
    return;
  }
  if (call.action != RmaAction::transfer && !(call.action == RmaAction::lock && !call.shmem)) return;
  const auto window = window_of(comms, rank, call, e);
  if (!window) return;
  const std::uint32_t remote =
      e.partner >= 0 ? comms.rank_in(comms.window_communicator(*window), e.partner) : OTF2_UNDEFINED_UINT32;
  if (call.action == RmaAction::lock) {  // MPI's: requested here, granted when MPI chooses
    const bool shared = e.match == static_cast<std::int64_t>(format::WindowLockType::shared);
    out(OTF2_EvtWriter_RmaRequestLock(out.writer, nullptr, time, *window, remote, 0,
                                      shared ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE));
    return;
  }
  if (remote == OTF2_UNDEFINED_UINT32) return;  // no member of the window: nothing to name
  const std::uint64_t id = next_id_++;
  switch (call.transfer) {
    case RmaTransfer::put:
      out(OTF2_EvtWriter_RmaPut(out.writer, nullptr, time, *window, remote, e.bytes, id));
      break;
    case RmaTransfer::get:
      out(OTF2_EvtWriter_RmaGet(out.writer, nullptr, time, *window, remote, e.bytes, id));
      break;
    case RmaTransfer::atomic:
      out(OTF2_EvtWriter_RmaAtomic(out.writer, nullptr, time, *window, remote, call.atomic, e.bytes,
                                   call.fetches ? e.bytes : 0, id));
      break;
  }
  if (call.blocking)
    blocking_id_ = id;
  else
    outstanding_.push_back({*window, remote, id});
}

void Otf2RmaLocation::complete(Otf2Records& out, OTF2_TimeStamp time, OTF2_RmaWinRef window,
                               std::uint32_t remote) {
  const auto completed = [&](const Outstanding& o) {
    return o.window == window && (remote == OTF2_UNDEFINED_UINT32 || o.remote == remote);
  };
  for (const Outstanding& o : outstanding_)
    if (completed(o)) out(OTF2_EvtWriter_RmaOpCompleteBlocking(out.writer, nullptr, time, o.window, o.id));
  std::erase_if(outstanding_, completed);
}

bool Otf2RmaLocation::end(Otf2Records& out, Otf2Communicators& comms, std::int64_t rank, const RmaCall& call,
                          const format::TraceEvent& e, OTF2_TimeStamp time, OTF2_RegionRef region) {
  if (call.action == RmaAction::transfer) {
    if (blocking_id_) {
      const auto window = window_of(comms, rank, call, e);
      if (window)
        out(OTF2_EvtWriter_RmaOpCompleteBlocking(out.writer, nullptr, time, *window, *blocking_id_));
      blocking_id_.reset();
    }
    return true;
  }
  if (call.action == RmaAction::none) return true;
  const auto window = window_of(comms, rank, call, e);
  if (!window) {
    collecting_ = false;  // a post or start without its window: no group to write
    return true;
  }
  const std::size_t comm = comms.window_communicator(*window);
  // The target a call names (an unlock's, a flush's), else every target of the window.
  const std::uint32_t remote =
      !call.shmem && e.partner >= 0 ? comms.rank_in(comm, e.partner) : OTF2_UNDEFINED_UINT32;
  if (call.completes)  // OpenSHMEM's transfers are on the heap of every PE, whatever set a barrier names
    complete(out, time, call.shmem ? comms.window(comms.shmem_communicator(0)) : *window, remote);
  switch (call.action) {
    case RmaAction::collective: {
      std::uint32_t root = OTF2_UNDEFINED_UINT32;
      std::uint64_t sent = 0, received = 0;
      if (call.collective == OTF2_COLLECTIVE_OP_BCAST) {
        root = e.partner >= 0 ? comms.rank_in(comm, e.partner) : OTF2_UNDEFINED_UINT32;
        (e.partner == rank ? sent : received) = e.bytes;
      } else if (call.collective != OTF2_COLLECTIVE_OP_BARRIER) {
        sent = received = e.bytes;
      }
      out(OTF2_EvtWriter_RmaCollectiveEnd(out.writer, nullptr, time, call.collective, call.level, *window,
                                          root, sent, received));
      break;
    }
    case RmaAction::lock:  // OpenSHMEM's: held from here; a test_lock that failed names no lock
      if (call.shmem && e.match > 0)
        out(OTF2_EvtWriter_RmaAcquireLock(out.writer, nullptr, time, *window, OTF2_UNDEFINED_UINT32,
                                          static_cast<std::uint64_t>(e.match), OTF2_LOCK_EXCLUSIVE));
      break;
    case RmaAction::unlock:
      if (!call.shmem)
        out(OTF2_EvtWriter_RmaReleaseLock(out.writer, nullptr, time, *window, remote, 0));
      else if (e.match > 0)
        out(OTF2_EvtWriter_RmaReleaseLock(out.writer, nullptr, time, *window, OTF2_UNDEFINED_UINT32,
                                          static_cast<std::uint64_t>(e.match)));
      break;
    case RmaAction::group_sync:
      if (call.epoch == RmaEpoch::post || call.epoch == RmaEpoch::start) {
        held_ = HeldLeave{*window, call.epoch, time, region};
        return false;
      }
      if (call.epoch == RmaEpoch::complete || e.match == 1) {  // a test that returned false ended nothing
        const auto& groups = call.epoch == RmaEpoch::complete ? access_group_ : exposure_group_;
        if (const auto it = groups.find(*window); it != groups.end())
          out(OTF2_EvtWriter_RmaGroupSync(out.writer, nullptr, time, call.level, *window, it->second));
      }
      break;
    case RmaAction::wait_change:
      out(OTF2_EvtWriter_RmaWaitChange(out.writer, nullptr, time, *window));
      break;
    default:
      break;
  }
  return true;
}

void Otf2RmaLocation::member(std::int64_t world_rank) {
  if (collecting_) members_.push_back(world_rank);  // else no post or start of this thread names it
}

void Otf2RmaLocation::leave_now(Otf2Records& out, Otf2Communicators& comms) {
  if (!held_) return;
  const HeldLeave held = *held_;
  held_.reset();
  const OTF2_GroupRef group = comms.rank_group(members_);
  (held.epoch == RmaEpoch::start ? access_group_ : exposure_group_)[held.window] = group;
  out(OTF2_EvtWriter_RmaGroupSync(out.writer, nullptr, held.time,
                                  OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, held.window,
                                  group));
  out(OTF2_EvtWriter_Leave(out.writer, nullptr, held.time, held.region));
  members_.clear();
  collecting_ = false;
}

}  // namespace parperf::exports
