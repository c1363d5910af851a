// The samples a thread takes while it is traced (`parperf run --trace --sample`), on their way from
// its sample handler to the trace writer: a fixed-capacity single-producer single-consumer ring in
// private memory, taken when the thread starts sampling.
//
// Why a ring of its own rather than the thread's trace buffers: the handler may interrupt the thread
// in the middle of an append to those buffers (the encoder's cursors half moved), so it must not
// touch them. The ring is the handler's alone to write: a push is two loads, a 16-byte store and one
// release store; no allocation, lock or system call, so it is async-signal-safe. The writer thread
// pops what is there at its wakes (at least every 10 ms) once a quarter is full, trace_writer.cpp. A full
// ring counts the sample (its weight) as lost, which the trace records and the reader reports: never silent.
#pragma once

#include <atomic>
#include <cstdint>

#include "format/trace_samples.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

class SampleRing {
 public:
  // At 1 kHz a thread fills it in 4 s; the writer, looking every 10 ms, empties it once a quarter full.
  static constexpr std::uint32_t kDefaultCapacity = 4096;

  // Over `entries` (capacity a power of two, zeroed memory the ring keeps).
  SampleRing(format::TraceSample* entries, std::uint32_t capacity) noexcept
      : entries_(entries), mask_(capacity - 1) {}
  SampleRing(const SampleRing&) = delete;
  SampleRing& operator=(const SampleRing&) = delete;

  // The producer (the owning thread's sample handler). False, counting the sample lost, when full.
  bool push(const format::TraceSample& sample) noexcept {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) > mask_) {
      lost_.add(sample.weight);
      return false;
    }
    entries_[head & mask_] = sample;
    head_.store(head + 1, std::memory_order_release);
    return true;
  }

  // The consumer (the trace writer): up to `max` of the oldest samples into `out`; how many.
  std::uint32_t pop(format::TraceSample* out, std::uint32_t max) noexcept {
    const std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    const std::uint64_t available = head_.load(std::memory_order_acquire) - tail;
    const std::uint32_t n = available < max ? static_cast<std::uint32_t>(available) : max;
    for (std::uint32_t i = 0; i < n; ++i) out[i] = entries_[(tail + i) & mask_];
    tail_.store(tail + n, std::memory_order_release);
    return n;
  }

  // Samples waiting (the consumer's view).
  std::uint64_t size() const noexcept {
    return head_.load(std::memory_order_acquire) - tail_.load(std::memory_order_relaxed);
  }
  std::uint32_t capacity() const noexcept { return mask_ + 1; }
  // Samples (weights) the producer could not push, since the start.
  std::uint64_t lost() const noexcept { return lost_.get(); }

  // The consumer's own bookkeeping: the lost count it has written into the trace so far.
  std::uint64_t lost_written = 0;

 private:
  format::TraceSample* entries_;
  std::uint32_t mask_;
  alignas(64) std::atomic<std::uint64_t> head_{0};  // written by the producer only
  Relaxed<std::uint64_t> lost_;                     // likewise
  alignas(64) std::atomic<std::uint64_t> tail_{0};  // written by the consumer only
};

// A ring of `capacity` samples (rounded up to a power of two) in private memory, or null.
SampleRing* create_sample_ring(std::uint32_t capacity = SampleRing::kDefaultCapacity) noexcept;

}  // namespace parperf::runtime
