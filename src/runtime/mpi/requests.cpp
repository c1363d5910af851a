#include "runtime/mpi/requests.hpp"

#include <atomic>

#include "runtime/mpi/handle_key.hpp"

namespace parperf::mpi {
namespace {

struct Entry {
  std::atomic<std::uintptr_t> key{0};  // 0 empty, kRemoved a free slot that was used
  RequestInfo info;
};

constexpr std::size_t kTableSize = 1u << 13;
constexpr std::uintptr_t kRemoved = ~std::uintptr_t{0};
constexpr std::size_t kMaxProbes = 64;  // beyond, the request is not tracked
Entry g_table[kTableSize];

Entry* find(std::uintptr_t key) {
  for (std::size_t i = mix(key) & (kTableSize - 1), probes = 0; probes < kMaxProbes;
       i = (i + 1) & (kTableSize - 1), ++probes) {
    const std::uintptr_t k = g_table[i].key.load(std::memory_order_acquire);
    if (k == key) return &g_table[i];
    if (k == 0) return nullptr;
  }
  return nullptr;
}

}  // namespace

void track_request(MPI_Request request, const RequestInfo& info) noexcept {
  if (request == MPI_REQUEST_NULL) return;
  const std::uintptr_t key = handle_key(request);
  if (Entry* e = find(key)) {  // a handle MPI reused before we saw it complete
    e->info = info;
    return;
  }
  for (std::size_t i = mix(key) & (kTableSize - 1), probes = 0; probes < kMaxProbes;
       i = (i + 1) & (kTableSize - 1), ++probes) {
    std::uintptr_t k = g_table[i].key.load(std::memory_order_relaxed);
    if (k != 0 && k != kRemoved) continue;
    // Claim the slot with a marker of our own, fill it, then publish the key.
    if (!g_table[i].key.compare_exchange_strong(k, kRemoved - 1, std::memory_order_acquire)) continue;
    g_table[i].info = info;
    g_table[i].key.store(key, std::memory_order_release);
    return;
  }
}

void restart_request(MPI_Request request, std::uint64_t started) noexcept {
  if (Entry* e = find(handle_key(request))) {
    e->info.started = started;
    e->info.active = true;
  }
}

bool complete_request(MPI_Request request, RequestInfo& info) noexcept {
  if (request == MPI_REQUEST_NULL) return false;
  Entry* e = find(handle_key(request));
  if (!e) return false;
  info = e->info;
  if (!info.persistent) {
    e->key.store(kRemoved, std::memory_order_release);
    return true;
  }
  e->info.active = false;
  return info.active;
}

void forget_tracked_request(MPI_Request request) noexcept {
  if (Entry* e = find(handle_key(request))) e->key.store(kRemoved, std::memory_order_release);
}

}  // namespace parperf::mpi
