// What every MPI wrapper calls: the measurement of one MPI call, from the moment the wrapper is
// entered to the moment PMPI returns, and the bookkeeping some calls need (communicators created
// and freed, requests started and completed, MPI_Init and MPI_Finalize).
//
// The wrappers themselves are generated from one table (mpi_functions.py, generate_wrappers.py).
// A wrapper reads:
//
//   parperf::mpi::Call call;
//   if (!parperf::mpi::begin(call, "MPI_Send", format::SiteKind::mpi_send, __builtin_return_address(0)))
//     return PMPI_Send(buf, count, type, dest, tag, comm);          // not measuring, or nested
//   const int result = PMPI_Send(buf, count, type, dest, tag, comm);
//   parperf::mpi::finish_send(call, count, type, dest, comm);
//   return result;
//
// begin() reads the clock last and the finish_*() functions read it first, so the measured time
// is the PMPI call's. Nothing here allocates or locks on a call; communicator creation (collective
// anyway) may.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "format/records.hpp"

namespace parperf::mpi {

struct Call {
  const char* name = nullptr;  // the MPI function ("MPI_Send"), static storage
  format::SiteKind kind = format::SiteKind::mpi_management;
  const void* caller = nullptr;  // return address into the program
  std::uint64_t start = 0;       // ticks
  bool measured = false;
};

// Starts measuring a call; false when the runtime is not measuring or the thread is already inside
// a measured MPI call (an MPI library calling its own MPI_ entry points): the wrapper then calls
// PMPI without finishing.
bool begin(Call& call, const char* name, format::SiteKind kind, const void* caller) noexcept;

// A call with nothing to add: management, Init-time queries, Win_create, File_open, ...
void finish_plain(Call& call) noexcept;

// Blocking point-to-point. `peer` is the rank in `comm` (MPI_PROC_NULL / MPI_ANY_SOURCE allowed),
// `tag` the message's (the event trace pairs sends and receives by it).
void finish_send(Call& call, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm) noexcept;
// `status` as MPI filled it (never MPI_STATUS_IGNORE: the wrapper passes its own then), or null
// when not known (Fortran): bytes are then count x type size, the partner is `peer` and the tag `tag`.
void finish_recv(Call& call, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                 const MPI_Status* status) noexcept;
// The trace pairs a Sendrecv with its partner's only when it exchanges with one partner under one
// tag (the usual pairwise exchange): one event cannot name two partners.
void finish_sendrecv(Call& call, int send_count, MPI_Datatype send_type, int dest, int send_tag,
                     int recv_count, MPI_Datatype recv_type, int source, int recv_tag, MPI_Comm comm,
                     const MPI_Status* status) noexcept;
// Probe / Iprobe / Mprobe / Improbe (status may be null).
void finish_probe(Call& call, int source, MPI_Comm comm, const MPI_Status* status) noexcept;

// A non-blocking or persistent request was created (Isend, Irecv, Send_init, Recv_init, Imrecv, ...).
// `persistent`: created inactive, started by Start/Startall.
void finish_request_start(Call& call, const MPI_Request* request, int count, MPI_Datatype type, int peer,
                          int tag, MPI_Comm comm, bool receive, bool persistent) noexcept;
// Start / Startall: the persistent requests become active now.
void finish_start(Call& call, int count, const MPI_Request* requests) noexcept;

// Wait*/Test*: `before` holds the request handles as they were before the call (MPI overwrites
// completed ones with MPI_REQUEST_NULL); `completed` the indices into `before` that completed and
// `statuses[j]` the status of completed[j] (statuses may be null). `count` is the size of `before`.
// In the event trace the call carries the first completed receive's communicator and tag (and its
// sender as partner): that is where the message arrived. A completion of sends only carries none,
// the send being traced at its Isend.
void finish_completion(Call& call, int count, const MPI_Request* before, int completed_count,
                       const int* completed, const MPI_Status* statuses) noexcept;
// MPI_Request_free: the request is forgotten (a persistent one for good).
void forget_request(MPI_Request request) noexcept;

// A collective on `comm`; `root` its root's rank in `comm` (-1 for a collective without one: the
// operation's partner is the root's world rank); `bytes` is what this rank sends and receives in it
// (an estimate for the v-variants: their counts summed). A non-blocking collective passes its
// request (it completes in a Wait/Test) and has no departure time in the instance sample.
void finish_collective(Call& call, MPI_Comm comm, int root, std::uint64_t bytes,
                       const MPI_Request* request) noexcept;

// One-sided communication and its synchronization; `target` is the rank in the window's group (or
// -1 for a synchronization of the whole window), reported as its MPI_COMM_WORLD rank (the partner).
void finish_one_sided(Call& call, int count, MPI_Datatype type, int target, MPI_Win win) noexcept;
// MPI_Win_fence. One that may end an epoch (no MPI_MODE_NOPRECEDE: every member gives that
// assertion or none) is traced as an instance of its window's fences (windows.hpp); one that opens
// the first epoch need not synchronize and is traced as the other synchronizations are.
void finish_window_fence(Call& call, int assertion, MPI_Win win) noexcept;
// MPI_Win_post and MPI_Win_start (`waits`: its time beyond the call's own overhead is waiting for
// the group's posts, its Real_sync): traced with the window's slot, the group's size and its members'
// MPI_COMM_WORLD ranks (the first as the partner, the others after it, trace_group_member), so that
// the analysis can pair each start with the posts it waited for. A member the world's group does
// not hold is traced as -1.
void finish_window_group(Call& call, MPI_Group group, bool waits, MPI_Win win) noexcept;
// MPI_Win_complete and MPI_Win_wait (`ended` true), MPI_Win_test (`ended`: its flag): traced with the
// window's slot and whether the call ended its epoch (the match, 1 or 0). A wait's (`waits`) time
// beyond the call's own overhead is waiting for the origins' completes, its Real_sync.
void finish_window_epoch_end(Call& call, bool ended, bool waits, MPI_Win win) noexcept;
// MPI_Win_lock (`target`: the rank whose lock it takes) and MPI_Win_lock_all (MPI_LOCK_SHARED, -1: every
// rank's): its time beyond the call's own overhead waiting for the lock's holder (Real_sync), and traced with
// the window's slot and the lock's type (format::WindowLockType) so that the analysis can hand the lock on
// from its previous holder.
void finish_window_lock(Call& call, int lock_type, int target, MPI_Win win) noexcept;
// MPI_Win_unlock (`target`) and MPI_Win_unlock_all (-1): the release of what the lock took, traced
// with the window's slot.
void finish_window_unlock(Call& call, int target, MPI_Win win) noexcept;
// MPI-IO reads and writes.
void finish_io(Call& call, int count, MPI_Datatype type) noexcept;

// Bytes of `count` elements of `type` (0 for MPI_DATATYPE_NULL or a failed query).
std::uint64_t bytes_of(int count, MPI_Datatype type) noexcept;
// Bytes of the elements counts[0..n) of `type`; n is the size of `comm` (or of its remote group).
std::uint64_t bytes_of(const int* counts, MPI_Datatype type, MPI_Comm comm) noexcept;

// Process-wide events. The wrappers of MPI_Init / MPI_Init_thread (C and Fortran) call before_init
// before PMPI and after_init once PMPI returned (`provided` null for MPI_Init); MPI_Finalize calls
// before_finalize before PMPI_Finalize, both within the call's measured time; both calls end with
// after_setup (the samples between are start-up's and shut-down's, counted apart: collector_api.h);
// MPI_Abort calls before_abort (the profile is written before the job is killed).
void before_init() noexcept;
void after_init(const int* provided) noexcept;
void before_finalize() noexcept;
void after_setup() noexcept;
void before_abort(int error_code) noexcept;

// MPI_Pcontrol(level): 0 switches recording off, 1 and above switch it on, as parperf_control does
// (recording_switch.hpp); other levels (negative: other tools' region marks) change nothing.
void control_profiling(int level) noexcept;

// A call that creates communicators (Comm_split, Comm_dup, Comm_create, Cart_create, Intercomm_merge,
// ...): once PMPI returned, each new communicator (MPI_COMM_NULL skipped) is registered so that its
// collectives can be matched across ranks. Collective over the parent, like the creation itself.
void after_comm_create(const MPI_Comm* created) noexcept;
// Before MPI_Comm_free / MPI_Comm_disconnect.
void before_comm_free(MPI_Comm comm) noexcept;
// A window was created over `comm` (Win_create, Win_allocate, Win_allocate_shared,
// Win_create_dynamic): registered so that its fences can be matched across its group. Collective
// over `comm`, like the creation.
void after_win_create(MPI_Comm comm, MPI_Win win) noexcept;
// Before MPI_Win_free.
void before_win_free(MPI_Win win) noexcept;

}  // namespace parperf::mpi
