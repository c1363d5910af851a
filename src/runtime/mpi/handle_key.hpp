// MPI handles as table keys. Open MPI's handles are pointers, MPICH's are integers: both fit in a
// pointer-sized integer, and neither implementation uses 0 for a live request or communicator
// (MPICH's MPI_REQUEST_NULL and MPI_COMM_NULL are non-zero constants, which the callers skip).
#pragma once

#include <cstdint>
#include <cstring>

namespace parperf::mpi {

template <class Handle>
std::uintptr_t handle_key(Handle handle) noexcept {
  static_assert(sizeof(Handle) <= sizeof(std::uintptr_t));
  std::uintptr_t key = 0;
  std::memcpy(&key, &handle, sizeof handle);
  return key;
}

// A 64-bit mix for open addressing (splitmix64's finaliser).
inline std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace parperf::mpi
