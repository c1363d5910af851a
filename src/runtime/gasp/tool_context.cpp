#include "runtime/gasp/tool_context.hpp"

#include <cstdint>

#include "runtime/collector_api.h"
#include "runtime/private_memory.hpp"

namespace parperf::gasp {
namespace {
constexpr unsigned kProbes = 4;
}  // namespace

ToolContext* create_context(bool measured) noexcept {
  ToolContext* context = runtime::create_private<ToolContext>();
  if (context) context->measured = measured;
  return context;
}

parperf_site* site_for(ToolContext& context, unsigned tag, const char* name, std::uint32_t kind,
                       const char* file, int line) noexcept {
  const auto hash = (reinterpret_cast<std::uintptr_t>(file) >> 3) * 0x9e3779b97f4a7c15ull ^
                    static_cast<std::uintptr_t>(static_cast<unsigned>(line)) * 0xff51afd7ed558ccdull ^ tag;
  const unsigned home = static_cast<unsigned>(hash >> 20) % ToolContext::kCacheSize;
  // A few neighbouring slots, so that two busy sites that hash alike do not evict each other and
  // take the interning lock on every event.
  CachedSite* free_slot = nullptr;
  for (unsigned probe = 0; probe < kProbes; ++probe) {
    CachedSite& entry = context.cache[(home + probe) % ToolContext::kCacheSize];
    if (!entry.site) {
      if (!free_slot) free_slot = &entry;
      continue;
    }
    if (entry.file == file && entry.line == line && entry.tag == tag) return entry.site;
  }
  parperf_site* site = parperf_collector_source_site(name, kind, file, line);
  if (site) *(free_slot ? free_slot : &context.cache[home]) = CachedSite{file, line, tag, site};
  return site;
}

}  // namespace parperf::gasp
