#include "runtime/sample_ring.hpp"

#include <bit>
#include <new>

#include "runtime/private_memory.hpp"

namespace parperf::runtime {

SampleRing* create_sample_ring(std::uint32_t capacity) noexcept {
  capacity = std::bit_ceil(capacity < 2 ? 2u : capacity);
  auto* entries =
      static_cast<format::TraceSample*>(allocate_private(capacity * sizeof(format::TraceSample), 64));
  void* memory = allocate_private(sizeof(SampleRing), alignof(SampleRing));
  if (!entries || !memory) return nullptr;
  return new (memory) SampleRing(entries, capacity);
}

}  // namespace parperf::runtime
