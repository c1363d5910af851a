#include "runtime/private_memory.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace parperf::runtime {
namespace {

constexpr std::size_t kRegionBytes = 256 * 1024;
constexpr std::size_t kOwnMappingBytes = 64 * 1024;  // from here on a block gets its own mapping
constexpr std::size_t kPage = 4096;

struct Region {
  std::atomic<std::size_t> used;  // bytes handed out from `data`, counted from the region's start
  std::size_t capacity;
};

// The region small blocks come from; replaced (never freed) when full.
constinit std::atomic<Region*> g_current{nullptr};

std::size_t round_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

void* map_pages(std::size_t bytes) {
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return memory == MAP_FAILED ? nullptr : memory;
}

// Carves `bytes` from `region`, or returns nullptr when it has no room left.
void* carve(Region* region, std::size_t bytes, std::size_t alignment) {
  const auto base = reinterpret_cast<std::uintptr_t>(region);
  std::size_t used = region->used.load(std::memory_order_relaxed);
  for (;;) {
    const std::size_t start = round_up(base + used, alignment) - base;
    if (start + bytes > region->capacity) return nullptr;
    if (region->used.compare_exchange_weak(used, start + bytes, std::memory_order_relaxed))
      return reinterpret_cast<void*>(base + start);
  }
}

Region* new_region() {
  void* memory = map_pages(kRegionBytes);
  if (!memory) return nullptr;
  auto* region = new (memory) Region{};
  region->used.store(sizeof(Region), std::memory_order_relaxed);
  region->capacity = kRegionBytes;
  return region;
}

}  // namespace

void* allocate_private(std::size_t bytes, std::size_t alignment) noexcept {
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  if (bytes == 0) bytes = 1;
  if (bytes >= kOwnMappingBytes || alignment > kPage) return map_pages(round_up(bytes, kPage));
  for (;;) {
    Region* region = g_current.load(std::memory_order_acquire);
    if (region)
      if (void* block = carve(region, bytes, alignment)) return block;
    Region* fresh = new_region();
    if (!fresh) return nullptr;
    if (!g_current.compare_exchange_strong(region, fresh, std::memory_order_acq_rel)) {
      munmap(fresh, kRegionBytes);  // another thread installed one first: use theirs
    }
  }
}

char* copy_text_private(const char* text, std::size_t length) noexcept {
  auto* copy = static_cast<char*>(allocate_private(length + 1, 1));
  if (copy && length) std::memcpy(copy, text, length);
  return copy;  // zeroed memory: already terminated
}

void release_private(void* block, std::size_t bytes) noexcept {
  if (block && bytes >= kOwnMappingBytes) munmap(block, round_up(bytes, kPage));
}

}  // namespace parperf::runtime
