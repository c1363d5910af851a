// The requests of non-blocking and persistent operations the program has in flight: what each
// carries (bytes, partner, element type of a receive) and when it started, so that the call that
// completes it can attribute its bytes, its waiting for the partner and the overlap of the
// communication with the caller's computation.
//
// A fixed open-addressed table searched without a lock (a request may be started on one thread
// and completed on another under MPI_THREAD_MULTIPLE). A full table drops tracking, never calls.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace parperf::mpi {

enum class RequestKind : std::uint8_t { send, receive, collective };

struct RequestInfo {
  RequestKind kind = RequestKind::send;
  bool persistent = false;
  std::uint64_t bytes = 0;    // of a send, or the posted size of a receive
  std::int64_t partner = -1;  // world rank
  // The element type of a receive, to count what arrived; meaningful when `typed`. (Zero-initialised
  // rather than MPI_DATATYPE_NULL, which is no constant expression in Open MPI: the table must need
  // no dynamic initialisation.)
  bool typed = false;
  MPI_Datatype type{};
  bool active = true;         // a persistent request between its Start and its completion
  std::uint64_t started = 0;  // ticks when the operation was started (returned from Isend / Start)
  // The message's communicator slot (-1 unknown) and tag as posted (a receive's may be
  // MPI_ANY_TAG: its status says which arrived), for the event trace.
  std::int32_t communicator = -1;
  std::int64_t tag = 0;
  MPI_Comm comm{};  // a receive's: its status names the sender by its rank in it
};

void track_request(MPI_Request request, const RequestInfo& info) noexcept;
// Persistent requests become active again (Start): a new start time.
void restart_request(MPI_Request request, std::uint64_t started) noexcept;
// Copies the request's information out; false when it is not tracked, or a persistent request that
// is not active (MPI reports inactive requests as complete again and again). Non-persistent requests
// are forgotten (MPI has freed them); persistent ones become inactive until restarted.
bool complete_request(MPI_Request request, RequestInfo& info) noexcept;
void forget_tracked_request(MPI_Request request) noexcept;

}  // namespace parperf::mpi
