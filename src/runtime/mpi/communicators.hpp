// The communicators the collector knows: for each, the runtime's slot (its collectives enter that
// slot's instance sample) and the MPI_COMM_WORLD ranks of its members (partners are reported as
// world ranks, whatever communicator the program used).
//
// A communicator is identified across ranks by the hash of its members' world ranks and by how
// many communicators with the same members this process registered before it: creation is
// collective over the members, so every member counts the same.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace parperf::mpi {

struct CommunicatorInfo {
  std::int32_t slot = -1;  // the runtime's communicator slot, -1 when not sampled
  int size = 0;
  const int* world_ranks = nullptr;  // size entries; null for MPI_COMM_WORLD itself
};

// Registers `comm` (an intracommunicator; intercommunicators are not sampled). Not on a hot path:
// it queries the group and may allocate.
void register_communicator(MPI_Comm comm) noexcept;
void unregister_communicator(MPI_Comm comm) noexcept;

// A slot of its own for a group of `comm`'s members whose synchronizations are matched apart from
// `comm`'s collectives (a window's fences: windows.hpp). Identified across ranks as communicators
// are: its members and how many registrations with the same members came before it (the window's
// creation is collective over them, so every member counts the same). Not on a hot path.
struct GroupSlot {
  std::int32_t slot = -1;  // -1 when the table is full
  int size = 0;
  const int* world_ranks = nullptr;  // the members' MPI_COMM_WORLD ranks (size of them), never freed;
                                     // null for an intercommunicator or a failed query
};
GroupSlot register_group_slot(MPI_Comm comm) noexcept;

// The registered communicator, or null. Lock-free.
const CommunicatorInfo* find_communicator(MPI_Comm comm) noexcept;

// The MPI_COMM_WORLD rank of `rank` in `comm`; -1 when unknown (unregistered communicator,
// MPI_ANY_SOURCE, MPI_PROC_NULL, out of range).
std::int64_t world_rank_of(MPI_Comm comm, int rank) noexcept;

}  // namespace parperf::mpi
