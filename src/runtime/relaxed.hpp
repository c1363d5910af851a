// A value written by one thread and read, possibly concurrently, by the profile writer.
//
// Relaxed atomics compile to plain loads and stores on x86-64 and AArch64, so the hot path pays
// nothing for them, yet a flush from another thread (or a signal handler) reads without a data race.
#pragma once

#include <atomic>

namespace parperf::runtime {

template <class T>
class Relaxed {
 public:
  constexpr Relaxed() noexcept = default;
  constexpr explicit Relaxed(T value) noexcept : value_(value) {}
  T get() const noexcept { return value_.load(std::memory_order_relaxed); }
  void set(T value) noexcept { value_.store(value, std::memory_order_relaxed); }
  // Single-writer increment: a load and a store, not a locked read-modify-write.
  void add(T delta) noexcept { set(get() + delta); }

 private:
  std::atomic<T> value_{};
};

}  // namespace parperf::runtime
