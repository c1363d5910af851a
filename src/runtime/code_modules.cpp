#include "runtime/code_modules.hpp"

#include <link.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::runtime {
namespace {

constexpr std::size_t kMaxRanges = 2048;
constexpr std::size_t kMaxModules = 1024;

CodeRange g_ranges[kMaxRanges];
std::atomic<std::uint32_t> g_range_count{0};
const char* g_module_paths[kMaxModules];
std::uintptr_t g_module_biases[kMaxModules];
std::atomic<std::uint32_t> g_module_count{0};
std::atomic<bool> g_module_gone[kMaxModules];  // unloaded since it was listed
UnwindTables g_module_unwind[kMaxModules];
std::atomic<std::uint32_t> g_generation{1};
PlainMutex g_refresh_mutex;
char g_executable_path[4096];

const char* path_of(const char* name) {
  if (name && name[0] != '\0') {
    const char* copy = copy_text_private(name, std::strlen(name));
    return copy ? copy : "";
  }
  // The main program's entry has no name.
  if (g_executable_path[0] == '\0') {
    const ssize_t n = readlink("/proc/self/exe", g_executable_path, sizeof g_executable_path - 1);
    g_executable_path[n > 0 ? n : 0] = '\0';
  }
  return g_executable_path;
}

// Whether the module at `bias` named `name` is known already (its segments are then listed).
// The index of the module at `bias` named `name` when it is known already (its segments are then
// listed), else kMaxModules.
std::uint32_t known_module(const char* name, std::uintptr_t bias) {
  const std::uint32_t count = g_module_count.load(std::memory_order_relaxed);
  const char* wanted = name && name[0] ? name : g_executable_path;
  for (std::uint32_t i = 0; i < count; ++i)
    if (g_module_biases[i] == bias && std::strcmp(g_module_paths[i], wanted) == 0) return i;
  return kMaxModules;
}

// dl_iterate_phdr's callback: the modules still loaded.
int note_loaded(dl_phdr_info* info, std::size_t, void* loaded) {
  const std::uint32_t module = known_module(info->dlpi_name, info->dlpi_addr);
  if (module != kMaxModules) static_cast<bool*>(loaded)[module] = true;
  return 0;
}

// The module's .eh_frame_hdr (PT_GNU_EH_FRAME) and the loaded segment that holds it.
UnwindTables unwind_tables_in(const dl_phdr_info& info) {
  UnwindTables tables;
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info.dlpi_phdr[i];
    if (header.p_type != PT_GNU_EH_FRAME) continue;
    for (int j = 0; j < info.dlpi_phnum; ++j) {
      const ElfW(Phdr)& segment = info.dlpi_phdr[j];
      if (segment.p_type == PT_LOAD && (segment.p_flags & PF_R) && header.p_vaddr >= segment.p_vaddr &&
          header.p_vaddr + header.p_memsz <= segment.p_vaddr + segment.p_filesz) {
        tables.eh_frame_hdr = info.dlpi_addr + header.p_vaddr;
        tables.segment_start = info.dlpi_addr + segment.p_vaddr;
        tables.segment_end = tables.segment_start + segment.p_filesz;
      }
    }
  }
  return tables;
}

int add_module(dl_phdr_info* info, std::size_t, void*) {
  if (const std::uint32_t module = known_module(info->dlpi_name, info->dlpi_addr); module != kMaxModules) {
    if (g_module_gone[module].load(std::memory_order_relaxed)) {
      g_module_gone[module].store(false, std::memory_order_release);  // loaded again where it was
      g_generation.fetch_add(1, std::memory_order_release);
    }
    return 0;
  }
  const std::uint32_t module = g_module_count.load(std::memory_order_relaxed);
  if (module >= kMaxModules) return 1;
  std::uint32_t ranges = g_range_count.load(std::memory_order_relaxed);
  bool any = false;
  for (int i = 0; i < info->dlpi_phnum && ranges < kMaxRanges; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
    CodeRange& r = g_ranges[ranges];
    r.start = info->dlpi_addr + segment.p_vaddr;
    r.end = r.start + segment.p_memsz;
    r.load_bias = info->dlpi_addr;
    r.module = module;
    r.readable = (segment.p_flags & PF_R) != 0;
    ++ranges;
    any = true;
  }
  if (!any) return 0;  // the vDSO's segments are executable too; a module without code says nothing
  g_module_unwind[module] = unwind_tables_in(*info);
  g_module_paths[module] = path_of(info->dlpi_name);
  g_module_biases[module] = info->dlpi_addr;
  g_module_count.store(module + 1, std::memory_order_release);
  g_range_count.store(ranges, std::memory_order_release);
  return 0;
}

}  // namespace

void refresh_code_modules() noexcept {
  std::lock_guard lock(g_refresh_mutex);
  dl_iterate_phdr(add_module, nullptr);
}

void forget_unloaded_code_modules() noexcept {
  std::lock_guard lock(g_refresh_mutex);
  static bool loaded[kMaxModules];  // under the lock: not on the stack of whatever thread unloads
  const std::uint32_t count = g_module_count.load(std::memory_order_relaxed);
  std::memset(loaded, 0, sizeof loaded);
  dl_iterate_phdr(note_loaded, loaded);
  for (std::uint32_t m = 0; m < count; ++m)
    if (g_module_gone[m].exchange(!loaded[m], std::memory_order_acq_rel) != !loaded[m])
      g_generation.fetch_add(1, std::memory_order_release);
}

void forget_code_module_at(std::uintptr_t load_bias) noexcept {
  const std::uint32_t count = g_module_count.load(std::memory_order_acquire);
  for (std::uint32_t m = 0; m < count; ++m)
    if (g_module_biases[m] == load_bias && load_bias != 0 &&
        !g_module_gone[m].exchange(true, std::memory_order_acq_rel))
      g_generation.fetch_add(1, std::memory_order_release);
}

const CodeRange* walkable_code_range_of(std::uintptr_t address) noexcept {
  const CodeRange* range = code_range_of(address);
  return range && !g_module_gone[range->module].load(std::memory_order_acquire) ? range : nullptr;
}

const CodeRange* code_range_of(std::uintptr_t address) noexcept {
  const std::uint32_t count = g_range_count.load(std::memory_order_acquire);
  for (std::uint32_t i = 0; i < count; ++i)
    if (address >= g_ranges[i].start && address < g_ranges[i].end) return &g_ranges[i];
  return nullptr;
}

const UnwindTables& unwind_tables_of(std::uint32_t module) noexcept { return g_module_unwind[module]; }

std::uint32_t code_range_count() noexcept { return g_range_count.load(std::memory_order_acquire); }

std::uint32_t code_generation() noexcept { return g_generation.load(std::memory_order_acquire); }

std::uint32_t code_module_count() noexcept { return g_module_count.load(std::memory_order_acquire); }

const char* code_module_path(std::uint32_t module) noexcept { return g_module_paths[module]; }

}  // namespace parperf::runtime
