#include "runtime/mpi/communicators.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#include "runtime/mpi/communicator_samples.hpp"
#include "runtime/mpi/handle_table.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::mpi {
using runtime::allocate_private;
using runtime::release_private;
namespace {

constinit HandleTable<CommunicatorInfo, 1024> g_communicators;
runtime::PlainMutex g_registration_mutex;  // registration is collective and rare

// How many communicators with a given member hash this process registered.
struct OrdinalCount {
  std::uint64_t hash = 0;
  std::uint32_t count = 0;
};
OrdinalCount g_ordinals[512];

std::uint32_t next_ordinal(std::uint64_t hash) {
  for (OrdinalCount& o : g_ordinals) {
    if (o.count != 0 && o.hash == hash) return o.count++;
    if (o.count == 0) {
      o = OrdinalCount{hash, 1};
      return 0;
    }
  }
  return 0xffffffffu;  // table full: an ordinal no other rank will match
}

// FNV-1a over the members' world ranks, in communicator order.
std::uint64_t members_hash(const int* world_ranks, int size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < size; ++i) {
    for (int b = 0; b < 4; ++b) {
      h ^= static_cast<std::uint64_t>((static_cast<unsigned>(world_ranks[i]) >> (8 * b)) & 0xff);
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

// The MPI_COMM_WORLD ranks of `comm`'s members, in `comm`'s order (size entries, private memory the
// caller releases), or null when MPI cannot say.
int* world_ranks_of(MPI_Comm comm, int size) {
  const std::size_t list_bytes = sizeof(int) * static_cast<std::size_t>(size);
  int* world_ranks = static_cast<int*>(allocate_private(list_bytes, alignof(int)));
  if (!world_ranks) return nullptr;
  MPI_Group group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
  int* local = static_cast<int*>(allocate_private(list_bytes, alignof(int)));
  bool translated = false;
  if (local && PMPI_Comm_group(comm, &group) == MPI_SUCCESS &&
      PMPI_Comm_group(MPI_COMM_WORLD, &world_group) == MPI_SUCCESS) {
    for (int i = 0; i < size; ++i) local[i] = i;
    translated = PMPI_Group_translate_ranks(group, size, local, world_group, world_ranks) == MPI_SUCCESS;
  }
  if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
  if (world_group != MPI_GROUP_NULL) PMPI_Group_free(&world_group);
  release_private(local, list_bytes);
  if (translated) return world_ranks;
  release_private(world_ranks, list_bytes);
  return nullptr;
}

// An intracommunicator's size and this process's rank in it; false for an intercommunicator or
// when MPI cannot say.
bool size_and_rank(MPI_Comm comm, int& size, int& rank) {
  int inter = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return false;
  return PMPI_Comm_size(comm, &size) == MPI_SUCCESS && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS &&
         size >= 1;
}

// A new slot for a group with these members; the caller holds the registration mutex.
std::int32_t add_slot(const int* world_ranks, int size, int rank) {
  const std::uint64_t hash = members_hash(world_ranks, size);
  return add_communicator(hash, next_ordinal(hash), static_cast<std::uint32_t>(size), rank);
}

}  // namespace

void register_communicator(MPI_Comm comm) noexcept {
  int size = 0, rank = 0;
  if (!size_and_rank(comm, size, rank)) return;
  const std::size_t list_bytes = sizeof(int) * static_cast<std::size_t>(size);
  int* world_ranks = world_ranks_of(comm, size);
  if (!world_ranks) return;

  std::lock_guard lock(g_registration_mutex);
  const CommunicatorInfo info{add_slot(world_ranks, size, rank), size,
                              comm == MPI_COMM_WORLD ? nullptr : world_ranks};
  const bool known = g_communicators.insert(comm, info);  // else the table is full: it stays unknown
  if (!known || !info.world_ranks) release_private(world_ranks, list_bytes);
}

GroupSlot register_group_slot(MPI_Comm comm) noexcept {
  GroupSlot group;
  int rank = 0;
  if (!size_and_rank(comm, group.size, rank)) return group;
  group.world_ranks = world_ranks_of(comm, group.size);
  if (!group.world_ranks) return group;
  std::lock_guard lock(g_registration_mutex);
  group.slot = add_slot(group.world_ranks, group.size, rank);
  return group;
}

void unregister_communicator(MPI_Comm comm) noexcept {
  // The member list stays allocated: a reader may still hold it (a few bytes per communicator).
  std::lock_guard lock(g_registration_mutex);
  g_communicators.remove(comm);
}

const CommunicatorInfo* find_communicator(MPI_Comm comm) noexcept { return g_communicators.find(comm); }

std::int64_t world_rank_of(MPI_Comm comm, int rank) noexcept {
  if (rank < 0) return -1;  // MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT are negative
  if (comm == MPI_COMM_WORLD) return rank;
  const CommunicatorInfo* info = find_communicator(comm);
  if (!info || rank >= info->size) return -1;
  return info->world_ranks ? info->world_ranks[rank] : rank;
}

}  // namespace parperf::mpi
