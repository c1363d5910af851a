#include "runtime/functions/module_exclusions.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "format/excluded_functions.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::functions {
namespace {

using runtime::allocate_private;
using runtime::release_private;

struct ModuleList {
  const link_map* module = nullptr;
  const std::uint64_t* addresses = nullptr;  // ascending; null when the module has no list
  std::uint64_t count = 0;
};

constexpr int kMaxModules = 256;
ModuleList g_modules[kMaxModules];
int g_module_count = 0;

bool read_at(int fd, void* into, std::size_t size, std::uint64_t offset) {
  auto* bytes = static_cast<unsigned char*>(into);
  while (size > 0) {
    const ssize_t n = pread(fd, bytes, size, static_cast<off_t>(offset));
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

// The excluded-functions section of the ELF file open at `fd`, in private memory (kept for the
// process's life), or null when it has none.
const std::uint64_t* read_list(int fd, std::uint64_t& count) {
  count = 0;
  Elf64_Ehdr header{};
  if (!read_at(fd, &header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shstrndx >= header.e_shnum)
    return nullptr;
  const std::size_t table_size = std::size_t{header.e_shnum} * sizeof(Elf64_Shdr);
  auto* sections = static_cast<Elf64_Shdr*>(allocate_private(table_size, alignof(Elf64_Shdr)));
  if (!sections) return nullptr;
  const std::uint64_t* list = nullptr;
  if (read_at(fd, sections, table_size, header.e_shoff)) {
    const Elf64_Shdr& names = sections[header.e_shstrndx];
    auto* text = static_cast<char*>(allocate_private(names.sh_size + 1));
    if (text && read_at(fd, text, names.sh_size, names.sh_offset)) {
      for (unsigned i = 0; i < header.e_shnum && !list; ++i) {
        const Elf64_Shdr& s = sections[i];
        if (s.sh_name >= names.sh_size ||
            std::strcmp(text + s.sh_name, format::kExcludedFunctionsSection) != 0)
          continue;
        auto* bytes = static_cast<unsigned char*>(allocate_private(s.sh_size + 8, 8));
        if (bytes && read_at(fd, bytes, s.sh_size, s.sh_offset))
          list = format::excluded_function_addresses(bytes, s.sh_size, count);
        if (!list) release_private(bytes, s.sh_size + 8);
      }
    }
    release_private(text, names.sh_size + 1);
  }
  release_private(sections, table_size);
  return list;
}

const ModuleList* module_list(const link_map* module) {
  for (int i = 0; i < g_module_count; ++i)
    if (g_modules[i].module == module) return &g_modules[i];
  if (g_module_count == kMaxModules) return nullptr;
  ModuleList& entry = g_modules[g_module_count++];
  entry.module = module;
  // The main program's link map has no name.
  char executable[4096];
  const char* path = module->l_name;
  if (!path || path[0] == '\0') {
    const ssize_t n = readlink("/proc/self/exe", executable, sizeof executable - 1);
    executable[n > 0 ? n : 0] = '\0';
    path = executable;
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    entry.addresses = read_list(fd, entry.count);
    close(fd);
  }
  return &entry;
}

}  // namespace

bool excluded_by_module_filter(const void* fn) noexcept {
  Dl_info info{};
  link_map* module = nullptr;
  if (dladdr1(fn, &info, reinterpret_cast<void**>(&module), RTLD_DL_LINKMAP) == 0 || !module) return false;
  const ModuleList* list = module_list(module);
  if (!list || !list->addresses) return false;
  const std::uint64_t address = reinterpret_cast<std::uintptr_t>(fn) - module->l_addr;
  std::uint64_t low = 0, high = list->count;
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    if (list->addresses[middle] < address) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < list->count && list->addresses[low] == address;
}

}  // namespace parperf::functions
