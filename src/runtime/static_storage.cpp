#include "runtime/static_storage.hpp"

#include <link.h>

#include <cstdint>

namespace parperf::runtime {
namespace {

int contains(dl_phdr_info* info, std::size_t, void* data) {
  const auto address = *static_cast<const std::uintptr_t*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD) continue;
    const std::uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
    if (address >= begin && address - begin < segment.p_memsz) return 1;
  }
  return 0;
}

}  // namespace

bool in_static_storage(const void* address) noexcept {
  auto value = reinterpret_cast<std::uintptr_t>(address);
  return dl_iterate_phdr(contains, &value) != 0;
}

}  // namespace parperf::runtime
