#include "runtime/gasp/tool_context.hpp"

#include <cstdint>

#include "runtime/collector_api.h"
#include "runtime/private_memory.hpp"

namespace parperf::gasp {

ToolContext* create_context(bool measured) noexcept {
  ToolContext* context = runtime::create_private<ToolContext>();
  if (context) context->measured = measured;
  return context;
}

parperf_site* site_for(ToolContext& context, unsigned tag, const char* name, std::uint32_t kind,
                       const char* file, int line) noexcept {
  const auto hash = (reinterpret_cast<std::uintptr_t>(file) >> 3) * 0x9e3779b97f4a7c15ull ^
                    static_cast<std::uintptr_t>(static_cast<unsigned>(line)) * 0xff51afd7ed558ccdull ^ tag;
  CachedSite& entry = context.cache[(hash >> 20) % ToolContext::kCacheSize];
  if (entry.site && entry.file == file && entry.line == line && entry.tag == tag) return entry.site;
  parperf_site* site = parperf_collector_source_site(name, kind, file, line);
  if (site) entry = CachedSite{file, line, tag, site};
  return site;
}

}  // namespace parperf::gasp
