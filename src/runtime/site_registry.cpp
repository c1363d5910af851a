#include "runtime/site_registry.hpp"

#include <atomic>
#include <cstring>

#include "runtime/diagnostics.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/static_storage.hpp"

namespace parperf::runtime {
namespace {

// Ids index a two-level table of fixed chunks: it only grows, so the writer can read it while
// another thread registers a site, without a lock.
constexpr std::uint32_t kChunkBits = 10;
constexpr std::uint32_t kChunkSize = 1u << kChunkBits;
constexpr std::uint32_t kMaxChunks = 1024;

std::atomic<const parperf_site*>* g_chunks[kMaxChunks];
std::atomic<std::uint32_t> g_site_count{0};
PlainMutex g_registry_mutex;  // serialises registration and interning (cold path)

parperf_site g_program_site = {"program", "", 0, PARPERF_KIND_PROGRAM, 0, 0};

// Interned run-time sites: an open-addressed table of owned descriptors, grown under the mutex.
struct InternedSite {
  parperf_site site;
  std::size_t hash;
};
InternedSite** g_interned = nullptr;
std::size_t g_interned_capacity = 0;
std::size_t g_interned_count = 0;

std::size_t hash_bytes(std::size_t hash, const char* data, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i)
    hash = (hash ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
  return hash;
}

bool same_text(const char* stored, const char* data, std::size_t length) {
  return std::strncmp(stored, data, length) == 0 && stored[length] == '\0';
}

bool grow_interned() {
  const std::size_t capacity = g_interned_capacity ? g_interned_capacity * 2 : 64;
  auto** table = static_cast<InternedSite**>(allocate_private(capacity * sizeof(InternedSite*)));
  if (!table) return false;
  for (std::size_t i = 0; i < g_interned_capacity; ++i) {
    InternedSite* entry = g_interned[i];
    if (!entry) continue;
    std::size_t slot = entry->hash & (capacity - 1);
    while (table[slot]) slot = (slot + 1) & (capacity - 1);
    table[slot] = entry;
  }
  release_private(g_interned, g_interned_capacity * sizeof(InternedSite*));
  g_interned = table;
  g_interned_capacity = capacity;
  return true;
}

}  // namespace

parperf_site* program_site() noexcept { return &g_program_site; }

namespace {

// Descriptors the runtime made itself (interned names, code sites) live until the process ends.
bool runtime_owned(const parperf_site* site) {
  return site == &g_program_site ||
         (__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & (kSiteInterned | kSiteIsCodeSite)) != 0;
}

const char* text_or_empty(const char* text) { return text ? text : ""; }

// Registers the copy of a site outside static storage in its place and marks the site kSiteCopied,
// so that the site's later entries (while it lives) come to copied_site.
std::int32_t register_copy(parperf_site* site) {
  parperf_site* copy = copied_site(site);
  if (!copy) return kSiteFiltered;
  if ((__atomic_load_n(&copy->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteUnregistered)
    register_site(copy);
  if (set_site_flag_once(copy, kSiteWarnedNotStatic))
    warn(
        "interval '%s' (%s:%d): its parperf_site is not in static storage (on a stack or the heap); parperf "
        "uses a copy of it, but a site must outlive the run: declare it static (reported once per site)",
        copy->name, copy->file, copy->line);
  site->id_ = copy->id_;
  __atomic_fetch_or(&site->state_, kSiteCopied, __ATOMIC_RELEASE);
  return kSiteCopied;
}

}  // namespace

parperf_site* copied_site(const parperf_site* site) noexcept {
  const char* name = text_or_empty(site->name);
  const char* file = text_or_empty(site->file);
  return intern_site(name, std::strlen(name), site->kind, file, std::strlen(file), site->line);
}

std::int32_t register_site(parperf_site* site) noexcept {
  if (!runtime_owned(site) && !in_static_storage(site)) return register_copy(site);
  std::lock_guard lock(g_registry_mutex);
  const std::int32_t state = __atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask;
  if (state != kSiteUnregistered) return state;
  const std::uint32_t id = g_site_count.load(std::memory_order_relaxed);
  const std::uint32_t chunk = id >> kChunkBits;
  if (chunk >= kMaxChunks) return kSiteFiltered;  // 1M distinct sites: stop recording new ones
  if (!g_chunks[chunk]) {
    g_chunks[chunk] = static_cast<std::atomic<const parperf_site*>*>(
        allocate_private(kChunkSize * sizeof(std::atomic<const parperf_site*>)));
    if (!g_chunks[chunk]) return kSiteFiltered;
  }
  site->id_ = id;
  g_chunks[chunk][id & (kChunkSize - 1)].store(site, std::memory_order_relaxed);
  g_site_count.store(id + 1, std::memory_order_release);
  const bool recorded = site == &g_program_site || name_is_recorded(config(), site->name ? site->name : "");
  const char* name = site->name ? site->name : "";
  const bool traced = config().trace && (site == &g_program_site || name_is_traced(config(), name));
  const std::int32_t new_state = recorded ? kSiteRecorded : kSiteFiltered;
  // Or, not store: the bits above the state (a CodeSite's mark) were set before registration.
  __atomic_fetch_or(&site->state_, new_state | (traced ? 0 : kSiteNotTraced), __ATOMIC_RELEASE);
  return new_state;
}

parperf_site* intern_site(const char* name, std::size_t name_length, int kind, const char* file,
                          std::size_t file_length, int line) noexcept {
  if (!file) file_length = 0;
  std::size_t hash = hash_bytes(1469598103934665603ull, name, name_length);
  hash = hash_bytes(hash ^ 0xff, file ? file : "", file_length);
  hash = (hash ^ static_cast<std::size_t>(line)) * 1099511628211ull;
  hash = (hash ^ static_cast<std::size_t>(kind)) * 1099511628211ull;

  std::lock_guard lock(g_registry_mutex);
  if (g_interned_capacity) {
    for (std::size_t slot = hash & (g_interned_capacity - 1);;
         slot = (slot + 1) & (g_interned_capacity - 1)) {
      InternedSite* entry = g_interned[slot];
      if (!entry) break;
      if (entry->hash == hash && entry->site.kind == kind && entry->site.line == line &&
          same_text(entry->site.name, name, name_length) &&
          same_text(entry->site.file, file ? file : "", file_length))
        return &entry->site;
    }
  }
  if ((g_interned_count + 1) * 2 > g_interned_capacity && !grow_interned()) return nullptr;
  // Kept for the rest of the run, like every site; a failed allocation leaves a few bytes behind.
  auto* entry = create_private<InternedSite>();
  char* name_copy = copy_text_private(name, name_length);
  char* file_copy = copy_text_private(file ? file : "", file_length);
  if (!entry || !name_copy || !file_copy) return nullptr;
  entry->site = parperf_site{name_copy, file_copy, line, kind, kSiteInterned, 0};
  entry->hash = hash;
  std::size_t slot = hash & (g_interned_capacity - 1);
  while (g_interned[slot]) slot = (slot + 1) & (g_interned_capacity - 1);
  g_interned[slot] = entry;
  ++g_interned_count;
  return &entry->site;
}

std::uint32_t registered_site_count() noexcept { return g_site_count.load(std::memory_order_acquire); }

const parperf_site* registered_site(std::uint32_t id) noexcept {
  return g_chunks[id >> kChunkBits][id & (kChunkSize - 1)].load(std::memory_order_relaxed);
}

bool set_site_flag_once(parperf_site* site, std::int32_t flag) noexcept {
  const std::int32_t before = __atomic_fetch_or(&site->state_, flag, __ATOMIC_RELAXED);
  return (before & flag) == 0;
}

}  // namespace parperf::runtime
