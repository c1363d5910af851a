// One measured MPI call as the collector hands it to the core: an operation at its call site
// (collector_api.h) and, for a collective on a registered communicator, an instance of its
// communicator's sample (communicator_samples.hpp). Times in ticks of parperf_collector_now().
#pragma once

#include <cstdint>

#include "format/records.hpp"

namespace parperf::mpi {

struct CallRecord {
  const char* name = nullptr;    // "MPI_Send": static storage
  const void* caller = nullptr;  // return address into the program
  format::SiteKind kind = format::SiteKind::mpi_management;
  std::int32_t communicator = -1;  // slot of a collective's communicator (add_communicator), else -1
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t real_sync = 0;  // part of the call spent waiting for a partner (estimated)
  std::uint64_t overlap = 0;    // non-blocking communication that ran while the caller computed
  std::uint64_t bytes = 0;
  std::int64_t partner = -1;  // MPI_COMM_WORLD rank of the partner (a rooted collective's root), -1 if none
  // For the event trace, which pairs messages across processes: the slot of a message's
  // communicator (-1 when unknown or no message) and its tag. A collective's pairing is its
  // communicator's sequence number, taken when it is recorded.
  std::int32_t message_communicator = -1;
  std::int64_t tag = 0;
  bool no_departure = false;  // a non-blocking collective: the call starts it, a Wait ends it
};

// Records the call in the calling thread's innermost interval.
void record(const CallRecord& call) noexcept;

// One more message that `call` received (a Waitall completing several receives): traced only, at
// the call's end with no duration (its statistics and its waiting are the call's).
struct ArrivedMessage {
  std::int64_t sender = -1;        // MPI_COMM_WORLD rank
  std::int32_t communicator = -1;  // slot
  std::int64_t tag = 0;
  std::uint64_t bytes = 0;
};
void trace_message(const CallRecord& call, const ArrivedMessage& message) noexcept;
// A member of an MPI_Win_post's or MPI_Win_start's group after the first (which is the call's own
// partner, its group's size its tag): traced only, at the call's end with no duration, its window's
// slot as the communicator and format::kWindowGroupMember as the match. False when no trace is
// recorded: the group's other members need not be translated.
bool trace_group_member(const CallRecord& call, std::int64_t world_rank) noexcept;

}  // namespace parperf::mpi
