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
// What the trace cannot pair is counted, not guessed: sends and receives left over (a trace cut
// short, a rank without a trace), and instances some members of which are missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/profile_index.hpp"
#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/traced_calls.hpp"

namespace parperf::analysis {

struct Message {
  CallSide send;
  CallSide receive;  // for a Wait/Test: that call, which is where the message arrived
  std::int64_t tag = 0;
  std::uint64_t bytes = 0;  // as the send recorded them
};

struct CollectiveInstance {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint64_t sequence = 0;
  std::uint32_t kind = 0;         // format::SiteKind (mpi_barrier, mpi_broadcast, ...)
  std::string name;               // the MPI function, as the lowest member called it ("MPI_Bcast")
  std::int64_t root = -1;         // world rank of a rooted collective's root, -1 for none
  bool blocking = true;           // false for MPI_Ibarrier, MPI_Ibcast, ...: no departure to compare
  std::vector<CallSide> members;  // by rank: arrival is start_ns, departure end_ns
};

struct Communication {
  std::vector<Message> messages;                // in the order they were matched
  std::uint64_t unmatched_sends = 0;            // sends no traced receive took
  std::uint64_t unmatched_receives = 0;         // receives of messages no traced send sent
  std::vector<CollectiveInstance> collectives;  // complete instances, by communicator then sequence
  std::uint64_t incomplete_collectives = 0;     // instances some members of which were not traced
};

// Matches the calls of every rank (extract_calls), given in the order of their ranks; `profiles`
// names the collectives. The n-th send of a key meets the n-th receive whatever order the ranks
// were extracted in, so ranks extracted apart give the result of the serial analysis.
Communication match_calls(const std::vector<RankCalls>& ranks, const ProfileIndex& profiles);

// The same for a whole traced run, read here rank by rank.
Communication match_communication(const TraceRun& traces);

}  // namespace parperf::analysis
