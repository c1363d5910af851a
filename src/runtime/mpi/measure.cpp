// The measurement of one MPI call (measure.hpp): a clock read on entry, one on exit, and what the
// call's arguments say about bytes, partner, waiting and overlap, handed to the runtime in one call.
#include "runtime/mpi/measure.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

#include "runtime/collector_api.h"
#include "runtime/mpi/call_record.hpp"
#include "runtime/mpi/clock_sync.hpp"
#include "runtime/mpi/communication_threads.hpp"
#include "runtime/mpi/communicators.hpp"
#include "runtime/mpi/requests.hpp"
#include "runtime/mpi/windows.hpp"

namespace parperf::mpi {
namespace {

// Inside a measured call: an MPI library that implements one MPI_ function with another (or a
// Fortran binding that reaches a C wrapper) is measured once, at the outermost call.
constinit thread_local bool t_inside __attribute__((tls_model("initial-exec"))) = false;

// 0 not yet known, 1 measuring, 2 not: asked once, the runtime's answer does not change back.
std::atomic<int> g_measuring{0};

bool measuring() {
  int state = g_measuring.load(std::memory_order_relaxed);
  if (__builtin_expect(state == 0, 0)) {
    // The first MPI call of the process (MPI_Init, or a query before it): the MPI library starts
    // its threads in PMPI_Init, which comes after.
    name_communication_threads();
    state = parperf_collector_active() ? 1 : 2;
    g_measuring.store(state, std::memory_order_relaxed);
  }
  return state == 1;
}

// A call that lasted longer than its message needs waited for the partner that long. The first
// microseconds beyond the estimate are the call's own overhead (a first message sets up its
// connection, a call may be preempted), not waiting: only what exceeds that allowance counts.
std::uint64_t waiting_part(std::uint64_t duration, std::uint64_t bytes) {
  const std::uint64_t needed = expected_transfer_ticks(bytes) + call_overhead_allowance_ticks();
  return duration > needed ? duration - expected_transfer_ticks(bytes) : 0;
}

CallRecord record_of(const Call& call, std::uint64_t end) {
  CallRecord r{};
  r.name = call.name;
  r.caller = call.caller;
  r.kind = call.kind;
  r.communicator = -1;
  r.start = call.start;
  r.end = end;
  r.partner = -1;
  return r;
}

// Ends the measured part of a call: the clock first, then the bookkeeping.
CallRecord end_call(const Call& call) {
  const std::uint64_t end = parperf_collector_now();
  t_inside = false;
  return record_of(call, end);
}

// The slot of a message's communicator, -1 when the collector does not know it.
std::int32_t slot_of(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return -1;
  const CommunicatorInfo* info = find_communicator(comm);
  return info ? info->slot : -1;
}

// The message `r` is a part of, for the event trace.
void set_message(CallRecord& r, MPI_Comm comm, std::int64_t tag) {
  r.message_communicator = slot_of(comm);
  r.tag = tag;
}

std::uint64_t received_bytes(const MPI_Status* status, MPI_Datatype type, std::uint64_t posted) {
  if (!status || type == MPI_DATATYPE_NULL || type == MPI_Datatype{}) return posted;
  int count = 0;
  if (PMPI_Get_count(status, type, &count) != MPI_SUCCESS || count == MPI_UNDEFINED) return posted;
  return bytes_of(count, type);
}

}  // namespace

bool begin(Call& call, const char* name, format::SiteKind kind, const void* caller) noexcept {
  if (t_inside || !measuring()) return false;
  t_inside = true;
  call.name = name;
  call.kind = kind;
  call.caller = caller;
  call.measured = true;
  call.start = parperf_collector_now();
  return true;
}

// A null handle (what Open MPI's f2c conversion gives for an invalid Fortran handle) is no type.
std::uint64_t bytes_of(int count, MPI_Datatype type) noexcept {
  if (count <= 0 || type == MPI_DATATYPE_NULL || type == MPI_Datatype{}) return 0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0) return 0;
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

std::uint64_t bytes_of(const int* counts, MPI_Datatype type, MPI_Comm comm) noexcept {
  if (!counts || type == MPI_DATATYPE_NULL || type == MPI_Datatype{}) return 0;
  int n = 0, inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS) return 0;
  std::uint64_t elements = 0;
  for (int i = 0; i < n; ++i)
    if (counts[i] > 0) elements += static_cast<std::uint64_t>(counts[i]);
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0) return 0;
  return elements * static_cast<std::uint64_t>(size);
}

void finish_plain(Call& call) noexcept {
  const CallRecord r = end_call(call);
  record(r);
}

void finish_send(Call& call, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm) noexcept {
  CallRecord r = end_call(call);
  r.bytes = bytes_of(count, type);
  r.partner = world_rank_of(comm, peer);
  if (r.partner >= 0) set_message(r, comm, tag);
  r.real_sync = waiting_part(r.end - r.start, r.bytes);
  record(r);
}

void finish_recv(Call& call, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                 const MPI_Status* status) noexcept {
  CallRecord r = end_call(call);
  r.bytes = received_bytes(status, type, bytes_of(count, type));
  r.partner = world_rank_of(comm, status ? status->MPI_SOURCE : peer);
  if (r.partner >= 0) set_message(r, comm, status ? status->MPI_TAG : tag);
  r.real_sync = waiting_part(r.end - r.start, r.bytes);
  record(r);
}

void finish_sendrecv(Call& call, int send_count, MPI_Datatype send_type, int dest, int send_tag,
                     int recv_count, MPI_Datatype recv_type, int source, int recv_tag, MPI_Comm comm,
                     const MPI_Status* status) noexcept {
  CallRecord r = end_call(call);
  const std::uint64_t sent = bytes_of(send_count, send_type);
  const std::uint64_t received = received_bytes(status, recv_type, bytes_of(recv_count, recv_type));
  r.bytes = sent + received;
  r.partner = world_rank_of(comm, status ? status->MPI_SOURCE : source);
  if (r.partner < 0) r.partner = world_rank_of(comm, dest);
  const int received_tag = status ? status->MPI_TAG : recv_tag;
  if (r.partner >= 0 && r.partner == world_rank_of(comm, dest) && received_tag == send_tag)
    set_message(r, comm, send_tag);
  r.real_sync = waiting_part(r.end - r.start, sent > received ? sent : received);
  record(r);
}

void finish_probe(Call& call, int source, MPI_Comm comm, const MPI_Status* status) noexcept {
  CallRecord r = end_call(call);
  r.partner = world_rank_of(comm, status ? status->MPI_SOURCE : source);
  r.real_sync = waiting_part(r.end - r.start, 0);
  record(r);
}

void finish_request_start(Call& call, const MPI_Request* request, int count, MPI_Datatype type, int peer,
                          int tag, MPI_Comm comm, bool receive, bool persistent) noexcept {
  CallRecord r = end_call(call);
  r.bytes = bytes_of(count, type);
  r.partner = world_rank_of(comm, peer);
  // An Isend is its message's send in the trace; an Irecv is not its receive (the completion is)
  // but says what it waits for.
  // Persistent requests are not traced as messages: their Start does not say which it started.
  if (!persistent) set_message(r, comm, tag);
  if (r.partner < 0 && !receive) r.message_communicator = -1;
  if (request) {
    RequestInfo info;
    info.kind = receive ? RequestKind::receive : RequestKind::send;
    info.persistent = persistent;
    info.bytes = r.bytes;
    info.partner = r.partner;
    info.typed = receive;
    if (receive) info.type = type;
    info.active = !persistent;  // a persistent request is inactive until started
    info.started = persistent ? 0 : r.end;
    info.communicator = r.message_communicator;
    info.tag = tag;
    if (receive) info.comm = comm;
    track_request(*request, info);
  }
  record(r);
}

void finish_start(Call& call, int count, const MPI_Request* requests) noexcept {
  CallRecord r = end_call(call);
  for (int i = 0; requests && i < count; ++i) restart_request(requests[i], r.end);
  record(r);
}

// Overlap: the time between a request's start and the call that completes it during which the
// communication was still running. If the completing call had to wait, the communication ran
// through all that time; if it completed at once, it finished somewhere in between, and the transfer
// time estimates how long it ran. The caller computed while any of its requests ran, so the overlap
// is the union of those stretches, never their sum: requests started together overlap the same
// computation once, and what an earlier completion on this thread accounted for is not counted again.
namespace {

constinit thread_local std::uint64_t t_overlap_accounted_until __attribute__((tls_model("initial-exec"))) = 0;

struct Stretch {
  std::uint64_t begin;
  std::uint64_t end;
};

std::uint64_t overlap_of(Stretch* stretches, int n) {
  for (int i = 1; i < n; ++i)  // insertion sort by begin: n <= 64, usually 1 or 2
    for (int k = i; k > 0 && stretches[k].begin < stretches[k - 1].begin; --k)
      std::swap(stretches[k], stretches[k - 1]);
  std::uint64_t overlap = 0;
  std::uint64_t until = t_overlap_accounted_until;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t begin = stretches[i].begin > until ? stretches[i].begin : until;
    if (stretches[i].end > begin) overlap += stretches[i].end - begin;
    if (stretches[i].end > until) until = stretches[i].end;
  }
  t_overlap_accounted_until = until;
  return overlap;
}

}  // namespace

void finish_completion(Call& call, int count, const MPI_Request* before, int completed_count,
                       const int* completed, const MPI_Status* statuses) noexcept {
  CallRecord r = end_call(call);
  const std::uint64_t duration = r.end - r.start;
  std::uint64_t largest = 0;
  bool waited_on_transfer = false;
  constexpr int kMaxStretches = 64;
  Stretch stretches[kMaxStretches];
  int stretch_count = 0;
  // The messages of the receives completed after the first (a Waitall of several receives): each is
  // traced on its own, so that the trace pairs every message with its send.
  constexpr int kMaxMessages = 64;
  ArrivedMessage more[kMaxMessages];
  int more_count = 0;
  for (int j = 0; before && completed && j < completed_count; ++j) {
    const int index = completed[j];
    if (index < 0 || index >= count) continue;
    RequestInfo info;
    if (!complete_request(before[index], info)) continue;
    const std::uint64_t bytes = info.kind == RequestKind::receive && info.typed
                                    ? received_bytes(statuses ? &statuses[j] : nullptr, info.type, info.bytes)
                                    : info.bytes;
    r.bytes += bytes;
    if (bytes > largest) largest = bytes;
    if (info.kind == RequestKind::receive && info.communicator >= 0) {
      // A receive completed: the message that arrived, by its status when there is one.
      const MPI_Status* status = statuses ? &statuses[j] : nullptr;
      const std::int64_t sender =
          info.partner >= 0 ? info.partner : (status ? world_rank_of(info.comm, status->MPI_SOURCE) : -1);
      const std::int64_t tag = status ? status->MPI_TAG : info.tag;
      if (sender >= 0 && r.message_communicator < 0) {
        r.partner = sender;
        r.message_communicator = info.communicator;
        r.tag = tag;
      } else if (sender >= 0 && more_count < kMaxMessages) {
        more[more_count++] = ArrivedMessage{sender, info.communicator, tag, bytes};
      }
    }
    if (r.partner < 0) r.partner = info.partner;
    if (info.kind == RequestKind::collective) continue;
    waited_on_transfer = true;
    if (info.started && r.start > info.started && stretch_count < kMaxStretches) {
      const std::uint64_t transfer = expected_transfer_ticks(bytes);
      const bool still_running = duration > transfer;
      const std::uint64_t ran_until =
          still_running || r.start - info.started < transfer ? r.start : info.started + transfer;
      stretches[stretch_count++] = Stretch{info.started, ran_until};
    }
  }
  r.overlap = overlap_of(stretches, stretch_count);
  if (waited_on_transfer) r.real_sync = waiting_part(duration, largest);
  record(r);
  for (int m = 0; m < more_count; ++m) trace_message(r, more[m]);
}

void forget_request(MPI_Request request) noexcept { forget_tracked_request(request); }

void finish_collective(Call& call, MPI_Comm comm, int root, std::uint64_t bytes,
                       const MPI_Request* request) noexcept {
  CallRecord r = end_call(call);
  r.bytes = bytes;
  r.partner = world_rank_of(comm, root);
  if (const CommunicatorInfo* info = find_communicator(comm)) r.communicator = info->slot;
  if (request) {
    r.no_departure = true;
    RequestInfo info;
    info.kind = RequestKind::collective;
    info.started = r.end;
    track_request(*request, info);
  }
  record(r);
}

// One-sided partners are ranks of the window's group: translated through the table the window's
// creation filled (windows.hpp), not by querying the group on every call. The trace names the window,
// as a message names its communicator (the OTF2 export's RMA records).
void finish_one_sided(Call& call, int count, MPI_Datatype type, int target, MPI_Win win) noexcept {
  CallRecord r = end_call(call);
  r.bytes = bytes_of(count, type);
  const WindowTarget window = window_target(win, target);
  r.partner = window.world_rank;
  r.message_communicator = window.slot;
  record(r);
}

void finish_window_fence(Call& call, int assertion, MPI_Win win) noexcept {
  CallRecord r = end_call(call);
  if ((assertion & MPI_MODE_NOPRECEDE) == 0) r.communicator = window_slot(win);
  record(r);
}

void finish_window_group(Call& call, MPI_Group group, bool waits, MPI_Win win) noexcept {
  CallRecord r = end_call(call);
  if (waits) r.real_sync = waiting_part(r.end - r.start, 0);
  int size = 0;
  MPI_Group world = MPI_GROUP_NULL;
  r.message_communicator = window_slot(win);
  if (r.message_communicator < 0 || group == MPI_GROUP_NULL || PMPI_Group_size(group, &size) != MPI_SUCCESS ||
      PMPI_Comm_group(MPI_COMM_WORLD, &world) != MPI_SUCCESS) {
    r.message_communicator = -1;  // untraced: the analysis counts the call as not linked
    record(r);
    return;
  }
  r.tag = size;
  // The members' world ranks, a chunk at a time on the stack: the first is the call's partner, the
  // others follow it in the trace.
  constexpr int kChunk = 64;
  int ranks[kChunk];
  int world_ranks[kChunk];
  if (size == 0) record(r);  // an empty group: no partner
  bool traced = true;        // until the first further member finds no trace recorded
  for (int first = 0; first < size && traced; first += kChunk) {
    const int n = std::min(kChunk, size - first);
    for (int i = 0; i < n; ++i) ranks[i] = first + i;
    const bool translated = PMPI_Group_translate_ranks(group, n, ranks, world, world_ranks) == MPI_SUCCESS;
    for (int i = 0; i < n; ++i) {
      const std::int64_t member = translated && world_ranks[i] != MPI_UNDEFINED ? world_ranks[i] : -1;
      if (first + i > 0) {
        if (!(traced = trace_group_member(r, member))) break;
        continue;
      }
      r.partner = member;
      record(r);
    }
  }
  PMPI_Group_free(&world);
}

void finish_window_epoch_end(Call& call, bool ended, bool waits, MPI_Win win) noexcept {
  CallRecord r = end_call(call);
  if (waits) r.real_sync = waiting_part(r.end - r.start, 0);
  r.message_communicator = window_slot(win);
  r.tag = ended ? 1 : 0;
  record(r);
}

void finish_window_lock(Call& call, int lock_type, int target, MPI_Win win) noexcept {
  CallRecord r = end_call(call);
  r.partner = window_world_rank(win, target);
  r.real_sync = waiting_part(r.end - r.start, 0);
  // Traced as a message's channel is (call_record.hpp): the window's slot, and the lock's type in the
  // tag. Not as an instance: locks are not matched across the window's members.
  r.message_communicator = window_slot(win);
  r.tag = static_cast<std::int64_t>(lock_type == MPI_LOCK_SHARED ? format::WindowLockType::shared
                                                                 : format::WindowLockType::exclusive);
  record(r);
}

void finish_window_unlock(Call& call, int target, MPI_Win win) noexcept {
  CallRecord r = end_call(call);
  const WindowTarget window = window_target(win, target);
  r.partner = window.world_rank;
  r.message_communicator = window.slot;
  record(r);
}

void finish_io(Call& call, int count, MPI_Datatype type) noexcept {
  CallRecord r = end_call(call);
  r.bytes = bytes_of(count, type);
  record(r);
}

}  // namespace parperf::mpi
