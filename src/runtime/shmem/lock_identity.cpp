#include "runtime/shmem/lock_identity.hpp"

#include <link.h>

#include <atomic>

#include "format/site_kinds.hpp"

namespace parperf::shmem {
namespace {

// The program's image: its load address and the end of its highest segment (bss included). Written
// once before the first lock call, read by every lock call: relaxed atomics, no lock.
std::atomic<std::uintptr_t> g_image_base{0};
std::atomic<std::uintptr_t> g_image_end{0};

int find_program(dl_phdr_info* info, size_t, void*) {
  // The first object dl_iterate_phdr reports is the program itself.
  std::uintptr_t end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD) continue;
    const std::uintptr_t last = info->dlpi_addr + segment.p_vaddr + segment.p_memsz;
    if (last > end) end = last;
  }
  g_image_base.store(info->dlpi_addr, std::memory_order_relaxed);
  g_image_end.store(end, std::memory_order_relaxed);
  return 1;  // stop: only the program
}

}  // namespace

void remember_program_image() noexcept { dl_iterate_phdr(find_program, nullptr); }

std::int64_t lock_identity(const volatile void* lock) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(lock);
  const std::uintptr_t base = g_image_base.load(std::memory_order_relaxed);
  const std::uintptr_t end = g_image_end.load(std::memory_order_relaxed);
  // A program linked at a fixed address (not PIE) has base 0 and its addresses are the same in every PE.
  if (base != 0 && address >= base && address < end)
    return format::kShmemLockInImage | static_cast<std::int64_t>(address - base);
  return static_cast<std::int64_t>(address);
}

}  // namespace parperf::shmem
