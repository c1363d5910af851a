#include "runtime/mpi/communicators.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#include "runtime/mpi/communicator_samples.hpp"
#include "runtime/mpi/handle_key.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::mpi {
using runtime::allocate_private;
using runtime::release_private;
namespace {

struct Entry {
  std::atomic<std::uintptr_t> key{0};  // 0 empty, kRemoved after unregistering
  CommunicatorInfo info;
};

constexpr std::size_t kTableSize = 1024;
constexpr std::uintptr_t kRemoved = ~std::uintptr_t{0};
Entry g_table[kTableSize];
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

Entry* find_entry(std::uintptr_t key) {
  for (std::size_t i = mix(key) & (kTableSize - 1), probes = 0; probes < kTableSize;
       i = (i + 1) & (kTableSize - 1), ++probes) {
    const std::uintptr_t k = g_table[i].key.load(std::memory_order_acquire);
    if (k == key) return &g_table[i];
    if (k == 0) return nullptr;
  }
  return nullptr;
}

}  // namespace

void register_communicator(MPI_Comm comm) noexcept {
  if (comm == MPI_COMM_NULL) return;
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return;
  int size = 0, rank = 0;
  if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || size < 1)
    return;

  const std::size_t list_bytes = sizeof(int) * static_cast<std::size_t>(size);
  int* world_ranks = static_cast<int*>(allocate_private(list_bytes, alignof(int)));
  if (!world_ranks) return;
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
  if (!translated) {
    release_private(world_ranks, list_bytes);
    return;
  }

  std::lock_guard lock(g_registration_mutex);
  const std::uint64_t hash = members_hash(world_ranks, size);
  const std::int32_t slot =
      add_communicator(hash, next_ordinal(hash), static_cast<std::uint32_t>(size), rank);
  const std::uintptr_t key = handle_key(comm);
  for (std::size_t i = mix(key) & (kTableSize - 1), probes = 0; probes < kTableSize;
       i = (i + 1) & (kTableSize - 1), ++probes) {
    const std::uintptr_t k = g_table[i].key.load(std::memory_order_relaxed);
    if (k != 0 && k != kRemoved && k != key) continue;
    Entry& e = g_table[i];
    e.info.slot = slot;
    e.info.size = size;
    e.info.world_ranks = comm == MPI_COMM_WORLD ? nullptr : world_ranks;
    if (comm == MPI_COMM_WORLD) release_private(world_ranks, list_bytes);
    e.key.store(key, std::memory_order_release);
    return;
  }
  release_private(world_ranks, list_bytes);  // table full: the communicator stays unknown
}

void unregister_communicator(MPI_Comm comm) noexcept {
  std::lock_guard lock(g_registration_mutex);
  if (Entry* e = find_entry(handle_key(comm))) {
    // The member list stays allocated: a reader may still hold it (a few bytes per communicator).
    e->key.store(kRemoved, std::memory_order_release);
  }
}

const CommunicatorInfo* find_communicator(MPI_Comm comm) noexcept {
  Entry* e = find_entry(handle_key(comm));
  return e ? &e->info : nullptr;
}

std::int64_t world_rank_of(MPI_Comm comm, int rank) noexcept {
  if (rank < 0) return -1;  // MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT are negative
  if (comm == MPI_COMM_WORLD) return rank;
  const CommunicatorInfo* info = find_communicator(comm);
  if (!info || rank >= info->size) return -1;
  return info->world_ranks ? info->world_ranks[rank] : rank;
}

}  // namespace parperf::mpi
