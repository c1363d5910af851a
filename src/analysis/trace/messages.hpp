// The communication of a traced run, matched across ranks: each point-to-point message's send with
// its receive, and each collective call with the same call on the communicator's other members.
// What the clock check, the wait-state analysis and the timeline exports' flow arrows read.
//
// Messages. A send is an MPI_Send/Bsend/Ssend/Rsend, an MPI_Isend (its start: the message leaves
// then) or an MPI_Sendrecv; a receive is an MPI_Recv, an MPI_Sendrecv, or the Wait/Test that
// completed an MPI_Irecv. Both name their partner (a world rank), their communicator and their tag
// (trace_events.hpp: `partner`, `communicator`, `match`). A send from s to r on communicator c with
// tag t matches the first unmatched receive by r from s on c with tag t: MPI's non-overtaking rule
// makes the n-th such send the n-th such receive. Communicators are compared across ranks by their
// identity (members_hash, ordinal), never by the rank-local ids the events carry.
//
// Collectives. A collective operation event names its communicator and its sequence number on it;
// the calls of every member with the same (communicator, sequence) are one instance.
//
// One-sided transfers. A put or get (format::SiteClass put, get: OpenSHMEM's, for one) names the
// process whose memory it wrote or read (`partner`) and needs no partner call: each is kept as it
// is, for the timeline's arrows.
//
// What the trace cannot pair is counted, not guessed: sends and receives left over (a trace cut
// short, a rank without a trace), and instances some members of which are missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/chunked_vector.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

// One side of a message or one rank's part in a collective. Times are corrected: ns since rank 0's
// start on rank 0's clock. 32 bytes (0.36 sides an event in a halo exchange, held from the matching
// to the wait states, beside the graph): the rank in 32 bits (read_rank_trace refuses a trace of a
// larger one), and the call's kind, which only a message's and a transfer's readers need, kept there.
struct CallSide {
  std::int32_t rank = 0;
  std::uint32_t thread = 0;
  std::uint32_t site = 0;  // the rank's profile site id (site_name, site_location)
  // The call's event: its place in its thread's stream (TimelineEvent::index). 32 bits, as the
  // activity graph, the one reader of it, refuses a thread of more events.
  std::uint32_t index = 0;
  double start_ns = 0;
  double end_ns = 0;
};
static_assert(sizeof(CallSide) == 32);

// A site kind of a message's call or a transfer (format::SiteKind: an MPI or OpenSHMEM one, all below
// 256).
using CallKind = std::uint16_t;

struct Message {
  CallSide send;
  CallSide receive;  // for a Wait/Test: that call, which is where the message arrived
  std::int64_t tag = 0;
  std::uint64_t bytes = 0;  // as the send recorded them
  CallKind send_kind = 0;   // format::SiteKind of the calls
  CallKind receive_kind = 0;
};
static_assert(sizeof(Message) == 88, "0.18 an event in a halo exchange");

struct CollectiveInstance {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint64_t sequence = 0;
  std::uint32_t kind = 0;         // format::SiteKind (mpi_barrier, mpi_broadcast, ...)
  std::string name;               // the MPI function, as the first member called it ("MPI_Bcast")
  std::int64_t root = -1;         // world rank of a rooted collective's root, -1 for none
  bool blocking = true;           // false for MPI_Ibarrier, MPI_Ibcast, ...: no departure to compare
  std::vector<CallSide> members;  // by rank: arrival is start_ns, departure end_ns
};

// A put into, or a get from, another process's memory.
struct OneSidedTransfer {
  CallSide origin;          // the call that moved the data
  CallKind kind = 0;        // format::SiteKind of that call
  std::int64_t target = 0;  // the process whose memory was written (put) or read (get)
  bool put = true;
  std::uint64_t bytes = 0;
};

// A lock of another process handed on (window_locks.hpp): `acquisition`'s MPI_Win_lock (_lock_all,
// shmem_set_lock, shmem_test_lock) returned after `release`'s MPI_Win_unlock (_unlock_all,
// shmem_clear_lock), of the lock's previous holder, released it.
struct LockHandover {
  CallSide release;
  CallSide acquisition;
  // Post-start-complete-wait's (window_epochs.hpp): `release` is an MPI_Win_complete letting a wait
  // go, not an MPI_Win_post letting a start (or a lazily started epoch's complete) go.
  bool completes = false;
};
// The handovers of one family of such locks (MPI windows', OpenSHMEM's), and the acquisitions that
// may have waited for a holder and are not linked to one (window_locks.hpp).
struct LockHandovers {
  std::vector<LockHandover> handovers;  // by the acquisition's call, then the release's
  std::vector<CallSide> unlinked;       // in their calls' order
};

struct Communication {
  // By the later of their two calls in the merged timeline. In chunks, not one array: 0.18 an event
  // in a halo exchange, 88 bytes each, and an array growing by doubling held its old and new copies
  // at once, where the analysis holds the most (beside the graph's draft).
  ChunkedVector<Message> messages;
  std::uint64_t unmatched_sends = 0;            // sends no traced receive took
  std::uint64_t unmatched_receives = 0;         // receives of messages no traced send sent
  std::vector<CollectiveInstance> collectives;  // complete instances, by communicator then sequence
  std::uint64_t incomplete_collectives = 0;     // instances some members of which were not traced
  std::vector<OneSidedTransfer> one_sided;      // in corrected time order
  LockHandovers window_locks;                   // MPI windows' locks
  LockHandovers shmem_locks;                    // OpenSHMEM's
  // MPI's post-start-complete-wait (window_epochs.hpp): each post to the start (or the complete) it
  // let go, each complete to the wait it let go; the starts and waits linked to none.
  LockHandovers window_epochs;
};

// Matches the communication of every rank of the run. Pure; reads the whole trace once, which
// `observer`, when given, sees event by event (timeline_merge.hpp).
Communication match_communication(const TraceRun& traces, StreamObserver* observer = nullptr);

// "file.c:42" (the file's name, without its directory) of a rank's site, or its name when the profile has no
// source position for it.
std::string site_location(const RankTrace& rank, std::uint32_t site);

}  // namespace parperf::analysis
