// The slow path of the sampled mode (`parperf cc --sampled`: compiler_plugin/sampled_access_pass.cpp).
// The instrumented code decrements the thread's __parperf_mem_countdown before every load and store
// and calls __parperf_mem_sampled only when it reaches 0; this file decides which accesses those are.
//
// Cost model: an unsampled access costs the inline decrement and a branch not taken. A sampled one
// costs this call: the thread's buffer, one 24-byte record (trace_buffer.hpp), and at the end of a
// burst one draw of the thread's generator; no lock, no system call (a full buffer is written as in
// the exact mode, once per 64 Ki records).
//
// Bursts: every thread records B consecutive accesses (g_burst_length; the countdown is 1 during a
// burst), then skips a gap of G accesses drawn uniformly in [2, 2 * g_mean_gap - 2] (mean
// g_mean_gap). Consecutive accesses keep the strides of the spatial window and the short reuse
// distances exact inside a burst; the random gap keeps the bursts from aligning with a loop's
// period. A thread's first burst begins at a random access among its first B + G (uniformly), so
// that every access has the same chance to be in a burst, the program's start included: a program
// much shorter than B + G may have no burst at all (the exact mode is for those). Every burst's
// first access carries the gap before it (MemoryAccessRecord's skipped count, never 0 but in a
// thread's very first access), which is how the analysis finds where a burst begins.
#include <unistd.h>

#include <cstdint>

#include "runtime/memory/sampling.hpp"
#include "runtime/memory/trace_buffer.hpp"

// The countdown the instrumented code decrements; 1 so that a thread's first access enters the
// slow path, which makes the thread's buffer and draws its first gap.
extern "C" {
__attribute__((visibility("default"))) constinit thread_local std::uint32_t __parperf_mem_countdown
    __attribute__((tls_model("initial-exec"))) = 1;
}

namespace parperf::memory {
namespace {

// xorshift64*: a few cycles, no state outside the thread's buffer.
std::uint64_t next_random(std::uint64_t& state) noexcept {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 0x2545f4914f6cdd1dull;
}

// Sets the countdown to the next burst's first access and tells the buffer how many it skips.
void start_gap(ThreadBuffer& buffer) noexcept {
  const std::uint64_t mean = g_mean_gap.load(std::memory_order_relaxed);  // at least 2
  // Uniform in [2, 2 * mean - 2] (mean `mean`) by a multiply-high, no division; at least 2, so that
  // at least one access is skipped and the next burst's first record says where it begins.
  const std::uint64_t values = 2 * mean - 3;
  const auto gap = static_cast<std::uint32_t>(2 + ((next_random(buffer.random_state) >> 32) * values >> 32));
  buffer.burst_left = g_burst_length.load(std::memory_order_relaxed);
  buffer.skipped = gap - 1;  // the accesses that pass before the countdown reaches 0 again
  __parperf_mem_countdown = gap;
}

// The thread's first access: makes its buffer, seeds its generator and draws where its first burst
// begins, uniformly in its first B + G accesses. Returns the buffer when this access begins it.
[[gnu::noinline]] ThreadBuffer* start_thread() noexcept {
  ThreadBuffer* buffer = create_thread_buffer();
  if (buffer == nullptr) {
    __parperf_mem_countdown = 0;  // nothing more is recorded: come back only after 2^32 accesses
    return nullptr;
  }
  g_burst_sampling.store(true, std::memory_order_relaxed);
  // Seeded per thread and per process (splitmix64 of both), never 0.
  std::uint64_t seed = (std::uint64_t{buffer->thread} << 32) ^ static_cast<std::uint64_t>(getpid());
  seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
  seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
  buffer->random_state = (seed ^ (seed >> 31)) | 1;
  buffer->burst_left = g_burst_length.load(std::memory_order_relaxed);
  const std::uint64_t period = buffer->burst_left + std::uint64_t{g_mean_gap.load(std::memory_order_relaxed)};
  const auto start = static_cast<std::uint32_t>((next_random(buffer->random_state) >> 32) * period >> 32);
  if (start == 0) return buffer;
  buffer->skipped = start;  // this access and the start - 1 after it
  __parperf_mem_countdown = start;
  return nullptr;
}

}  // namespace
}  // namespace parperf::memory

// `code`: the access's size in bytes, | 256 for a store. The pc is this call's return address in
// the instrumented function, as for the exact mode's hooks.
extern "C" __attribute__((visibility("default"))) void __parperf_mem_sampled(void* address,
                                                                             std::uint32_t code) {
  using namespace parperf::memory;
  ThreadBuffer* buffer = t_buffer;
  if (__builtin_expect(buffer == nullptr, 0) && (buffer = start_thread()) == nullptr) return;
  const auto flags = static_cast<std::uint8_t>(code >> 8 ? parperf::format::kAccessStore : 0);
  append_access(*buffer, address, static_cast<std::uint8_t>(code), flags, __builtin_return_address(0));
  if (buffer->burst_left > 1) {
    --buffer->burst_left;
    __parperf_mem_countdown = 1;
  } else {
    start_gap(*buffer);
  }
}
