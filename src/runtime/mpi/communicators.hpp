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

// The registered communicator, or null. Lock-free.
const CommunicatorInfo* find_communicator(MPI_Comm comm) noexcept;

// The MPI_COMM_WORLD rank of `rank` in `comm`; -1 when unknown (unregistered communicator,
// MPI_ANY_SOURCE, MPI_PROC_NULL, out of range).
std::int64_t world_rank_of(MPI_Comm comm, int rank) noexcept;

}  // namespace parperf::mpi
