#include "runtime/code_sites.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <new>

#include "runtime/diagnostics.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/site_registry.hpp"

namespace parperf::runtime {
namespace {

constexpr std::size_t kTableSize = 1u << kCodeSiteSlotBits;  // constructs and call sites of one program
std::atomic<CodeSite*> g_table[kTableSize];
std::atomic<const void*> g_foreign_runtime_base{nullptr};
PlainMutex g_module_mutex;  // serialises the module lookups of new sites (cold path)
char g_executable_path[4096];

std::size_t slot_of(const void* key, format::SiteKind kind) {
  auto h = reinterpret_cast<std::uintptr_t>(key) * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint64_t>(kind);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h & (kTableSize - 1);
}

const char* copy_text(const char* text) {
  const char* copy = copy_text_private(text, std::strlen(text));
  return copy ? copy : "";
}

// Fills the module path and module-relative address of the site's code address.
void locate_module(CodeSite& site, const void* codeptr) {
  if (!codeptr) return;
  std::lock_guard lock(g_module_mutex);
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(codeptr, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 || !map) return;
  site.address = reinterpret_cast<std::uintptr_t>(codeptr) - map->l_addr;
  site.in_foreign_runtime = info.dli_fbase && info.dli_fbase == g_foreign_runtime_base.load();
  if (map->l_name && map->l_name[0] != '\0') {
    site.module = copy_text(map->l_name);
    return;
  }
  // The main program's link map has no name.
  if (g_executable_path[0] == '\0') {
    const ssize_t n = readlink("/proc/self/exe", g_executable_path, sizeof g_executable_path - 1);
    g_executable_path[n > 0 ? n : 0] = '\0';
  }
  site.module = g_executable_path;
}

CodeSite* find_or_create(const void* key, format::SiteKind kind, const void* codeptr, const CodeSite* parent,
                         const char* name) {
  for (std::size_t slot = slot_of(key, kind), probes = 0; probes < kTableSize;
       slot = (slot + 1) & (kTableSize - 1), ++probes) {
    CodeSite* existing = g_table[slot].load(std::memory_order_acquire);
    if (existing) {
      if (existing->key == key && existing->kind == kind) return existing;
      continue;
    }
    // Cold: build the site, then try to claim the slot. A racing thread that claims it first with
    // the same key wins; ours is dropped (a few bytes, once).
    CodeSite* site = create_private<CodeSite>();
    if (!site) return nullptr;
    site->key = key;
    site->kind = kind;
    site->parent = parent;
    if (parent) {
      site->address = parent->address;
      site->module = parent->module;
      site->in_foreign_runtime = parent->in_foreign_runtime;
    } else {
      locate_module(*site, codeptr);
    }
    site->site = parperf_site{name ? name : "operation", "", 0, static_cast<std::int32_t>(kind), 0, 0};
    __atomic_store_n(&site->site.state_, kSiteIsCodeSite, __ATOMIC_RELEASE);
    site->slot = static_cast<std::uint16_t>(slot);
    CodeSite* expected = nullptr;
    if (g_table[slot].compare_exchange_strong(expected, site, std::memory_order_acq_rel)) return site;
    release_private(site, sizeof(CodeSite));
    if (expected->key == key && expected->kind == kind) return expected;
  }
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    warn("more than %zu distinct construct and call sites; later ones are not recorded", kTableSize);
  return nullptr;
}

}  // namespace

CodeSite* code_site(const void* codeptr, format::SiteKind kind, const char* name) noexcept {
  return find_or_create(codeptr, kind, codeptr, nullptr, name);
}

CodeSite* construct_operation_site(const CodeSite* construct, format::SiteKind kind,
                                   const char* name) noexcept {
  return find_or_create(construct, kind, nullptr, construct, name);
}

CodeSite* code_site_in_slot(std::uint32_t slot) noexcept {
  return slot < kTableSize ? g_table[slot].load(std::memory_order_acquire) : nullptr;
}

std::uintptr_t load_bias_of(const CodeSite* site) noexcept {
  if (!site->key || site->parent || site->address == 0) return 0;
  return reinterpret_cast<std::uintptr_t>(site->key) - site->address;
}

void mark_foreign_runtime_module(const void* any_address) noexcept {
  Dl_info info{};
  if (dladdr(any_address, &info) != 0) g_foreign_runtime_base.store(info.dli_fbase);
}

const CodeSite* as_code_site(const parperf_site* site) noexcept {
  if (!site || (__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteIsCodeSite) == 0) return nullptr;
  return reinterpret_cast<const CodeSite*>(site);
}

}  // namespace parperf::runtime
