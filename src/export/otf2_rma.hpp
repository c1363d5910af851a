// MPI's one-sided calls and OpenSHMEM's in OTF2's RMA records (otf2_writer.hpp), as Score-P writes
// them, so that Vampir and Scalasca see one-sided transfers, their completion and the
// synchronizations as such, not as plain regions.
//
// Inside a call's Enter and Leave: a put, get or atomic is RmaPut / RmaGet / RmaAtomic at its start
// (the window, the target's rank in the window's communicator, the bytes and a matching id unique on
// the location), completed by RmaOpCompleteBlocking with that id at the end of the call that
// completed it: its own for OpenSHMEM's blocking calls; for MPI's and OpenSHMEM's non-blocking ones
// the next synchronization of the window that completes the caller's transfers (a fence, an unlock
// or flush of the target or of all, MPI_Win_complete, shmem_quiet, shmem_barrier(_all)). A
// synchronizing MPI_Win_fence and OpenSHMEM's collectives are RmaCollectiveBegin/End; MPI_Win_lock
// (_all) RmaRequestLock at its start (MPI's locks may be granted later, at the first transfer), its
// unlock RmaReleaseLock; shmem_set_lock and a test_lock that took the lock RmaAcquireLock with the
// lock's identity, shmem_clear_lock RmaReleaseLock; MPI_Win_post, _start, _complete and a _wait or
// _test that ended its epoch RmaGroupSync with the epoch's group; shmem_wait(_until) RmaWaitChange.
//
// Not written, as the trace does not say it: a transfer whose window the trace does not name (a
// collector before windows were traced, a target outside the window), a fence with
// MPI_MODE_NOPRECEDE (traced without its window: it completes nothing), a test_lock that did not
// take its lock (its identity is not kept), windows' creation and destruction.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "export/otf2_communicators.hpp"
#include "format/trace_file.hpp"

namespace parperf::exports {

enum class RmaAction : std::uint8_t {
  none,
  transfer,     // a put, get or atomic
  collective,   // a synchronizing MPI_Win_fence, an OpenSHMEM collective
  lock,         // MPI_Win_lock(_all), shmem_set_lock, shmem_test_lock
  unlock,       // MPI_Win_unlock(_all), shmem_clear_lock
  group_sync,   // MPI_Win_post, _start, _complete, _wait, _test
  flush,        // MPI_Win_flush(_local)(_all), shmem_quiet: completes the caller's transfers
  wait_change,  // shmem_wait, shmem_*_wait_until
};
enum class RmaTransfer : std::uint8_t { put, get, atomic };
enum class RmaEpoch : std::uint8_t { none, post, start, complete, wait };

struct RmaCall {
  RmaAction action = RmaAction::none;
  bool shmem = false;
  RmaTransfer transfer = RmaTransfer::put;
  OTF2_RmaAtomicType atomic = OTF2_RMA_ATOMIC_TYPE_ACCUMULATE;
  bool fetches = false;    // an atomic whose result comes back
  bool blocking = false;   // a transfer complete when the call returns
  bool completes = false;  // completes the caller's transfers on the window (the target's when it names one)
  OTF2_CollectiveOp collective = OTF2_COLLECTIVE_OP_BARRIER;
  OTF2_RmaSyncLevel level = OTF2_RMA_SYNC_LEVEL_NONE;
  RmaEpoch epoch = RmaEpoch::none;
};

// What the call of kind `kind` named `name` writes (RmaAction::none: no RMA record).
RmaCall rma_call(std::uint32_t kind, std::string_view name);

// The records a location's writer is given, counted; the first error kept.
struct Otf2Records {
  OTF2_EvtWriter* writer = nullptr;
  std::uint64_t* events = nullptr;
  OTF2_ErrorCode status = OTF2_SUCCESS;
  void operator()(OTF2_ErrorCode code) {
    if (code == OTF2_SUCCESS)
      ++*events;
    else if (status == OTF2_SUCCESS)
      status = code;
  }
};

// One location's RMA records: its transfers not yet complete, the groups of its epochs, and a post's
// or start's Leave held back until the call's further group members (traced after it) are known.
class Otf2RmaLocation {
 public:
  // After the call's Enter.
  void begin(Otf2Records& out, Otf2Communicators& comms, std::int64_t rank, const RmaCall& call,
             const format::TraceEvent& e, OTF2_TimeStamp time);
  // Before the call's Leave; false when the Leave is held back (a post or start: leave_later()).
  bool end(Otf2Records& out, Otf2Communicators& comms, std::int64_t rank, const RmaCall& call,
           const format::TraceEvent& e, OTF2_TimeStamp time, OTF2_RegionRef region);
  // A further member of the post's or start's group (format::kWindowGroupMember).
  void member(std::int64_t world_rank);
  bool holds_leave() const { return held_.has_value(); }
  // Writes the held post's or start's RmaGroupSync and Leave.
  void leave_now(Otf2Records& out, Otf2Communicators& comms);

 private:
  struct Outstanding {
    OTF2_RmaWinRef window;
    std::uint32_t remote;
    std::uint64_t id;
  };
  struct HeldLeave {
    OTF2_RmaWinRef window;
    RmaEpoch epoch;
    OTF2_TimeStamp time;
    OTF2_RegionRef region;
  };
  std::optional<OTF2_RmaWinRef> window_of(Otf2Communicators& comms, std::int64_t rank, const RmaCall& call,
                                          const format::TraceEvent& e) const;
  void complete(Otf2Records& out, OTF2_TimeStamp time, OTF2_RmaWinRef window, std::uint32_t remote);

  std::uint64_t next_id_ = 0;
  std::vector<Outstanding> outstanding_;
  std::optional<std::uint64_t> blocking_id_;  // the transfer the current call completes itself
  std::vector<std::int64_t> members_;         // of the current post or start, world ranks
  bool collecting_ = false;                   // members_ is a post's or start's, not yet written
  std::optional<HeldLeave> held_;
  std::map<OTF2_RmaWinRef, OTF2_GroupRef> access_group_, exposure_group_;  // the last start's, post's
};

}  // namespace parperf::exports
