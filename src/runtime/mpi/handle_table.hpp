// A fixed table from MPI handles (handle_key.hpp) to what the collector knows of them, for handles
// registered rarely (a communicator's or a window's creation, collective anyway) and looked up on
// every call: a lookup is lock-free; registering and removing are serialized by the caller's lock.
//
// An entry's value is written before its key is published (release) and read after the key is found
// (acquire). A removed entry keeps its value for a reader that found it before; its place is taken by
// the next registration. Open addressing with linear probing; kSize is a power of two.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/mpi/handle_key.hpp"

namespace parperf::mpi {

template <class Value, std::size_t kSize>
class HandleTable {
  static_assert(kSize > 0 && (kSize & (kSize - 1)) == 0, "a power of two");

 public:
  // The value registered for `handle`, or null. Lock-free.
  template <class Handle>
  const Value* find(Handle handle) const noexcept {
    const Entry* e = entry(handle_key(handle));
    return e ? &e->value : nullptr;
  }

  // Registers `value` for `handle` (replacing one it had); false when the table is full. The caller
  // holds the registration lock.
  template <class Handle>
  bool insert(Handle handle, const Value& value) noexcept {
    const std::uintptr_t key = handle_key(handle);
    for (std::size_t i = mix(key) & (kSize - 1), probes = 0; probes < kSize;
         i = (i + 1) & (kSize - 1), ++probes) {
      Entry& e = entries_[i];
      const std::uintptr_t k = e.key.load(std::memory_order_relaxed);
      if (k != 0 && k != kRemoved && k != key) continue;
      e.value = value;
      e.key.store(key, std::memory_order_release);
      return true;
    }
    return false;
  }

  // Forgets `handle`. The caller holds the registration lock.
  template <class Handle>
  void remove(Handle handle) noexcept {
    if (Entry* e = entry(handle_key(handle))) e->key.store(kRemoved, std::memory_order_release);
  }

 private:
  struct Entry {
    std::atomic<std::uintptr_t> key{0};  // 0 empty, kRemoved after removal
    Value value{};
  };
  static constexpr std::uintptr_t kRemoved = ~std::uintptr_t{0};

  Entry* entry(std::uintptr_t key) noexcept {
    return const_cast<Entry*>(static_cast<const HandleTable*>(this)->entry(key));
  }
  const Entry* entry(std::uintptr_t key) const noexcept {
    for (std::size_t i = mix(key) & (kSize - 1), probes = 0; probes < kSize;
         i = (i + 1) & (kSize - 1), ++probes) {
      const std::uintptr_t k = entries_[i].key.load(std::memory_order_acquire);
      if (k == key) return &entries_[i];
      if (k == 0) return nullptr;
    }
    return nullptr;
  }

  Entry entries_[kSize];
};

}  // namespace parperf::mpi
