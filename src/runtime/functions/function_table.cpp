#include "runtime/functions/function_table.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>

#include "format/site_kinds.hpp"
#include "runtime/collector_api.h"
#include "runtime/functions/module_exclusions.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::functions {

std::atomic<const FunctionEntry*> g_functions[kTableSize];

namespace {

runtime::PlainMutex g_mutex;  // serialises the cold path: module lists, site creation, insertion
std::size_t g_count = 0;
int g_measured = -1;  // parperf_collector_active(), asked once
// The cold path may call into libc and the runtime; should anything there be instrumented (a
// program's own allocator, preloaded), its hooks must not come back here on the same thread.
constinit thread_local bool t_inside __attribute__((tls_model("initial-exec"))) = false;

void warn_full() {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  static const char message[] =
      "parperf: more than 24576 distinct instrumented functions; the later ones are not measured (a "
      "filter keeps small functions out: docs/instrumentation.md)\n";
  [[maybe_unused]] const ssize_t written = write(2, message, sizeof message - 1);
}

// The site's name until the analysis symbolizes its address (the runtime's own messages use it, as
// when a longjmp left the function's interval open): the dynamic symbol when the function has one,
// else "function at <module>+0x<offset>".
PARPERF_NO_INSTRUMENT const char* provisional_name(const void* fn) {
  Dl_info info{};
  if (dladdr(fn, &info) == 0) return "function";
  if (info.dli_sname && info.dli_saddr == fn) return info.dli_sname;  // the module's string table
  const char* module = info.dli_fname ? std::strrchr(info.dli_fname, '/') : nullptr;
  module = module ? module + 1 : (info.dli_fname ? info.dli_fname : "?");
  char text[160];
  const int length = std::snprintf(
      text, sizeof text, "function at %s+0x%zx", module,
      static_cast<std::size_t>(static_cast<const char*>(fn) - static_cast<const char*>(info.dli_fbase)));
  const char* copy = length > 0 ? runtime::copy_text_private(text, std::strlen(text)) : nullptr;
  return copy ? copy : "function";
}

PARPERF_NO_INSTRUMENT const FunctionEntry* insert(FunctionEntry* entry) {
  for (std::size_t slot = slot_of(entry->fn);; slot = (slot + 1) & (kTableSize - 1)) {
    const FunctionEntry* existing = g_functions[slot].load(std::memory_order_relaxed);
    if (existing && existing->fn == entry->fn) return existing;
    if (!existing) {
      g_functions[slot].store(entry, std::memory_order_release);
      ++g_count;
      return entry;
    }
  }
}

}  // namespace

PARPERF_NO_INSTRUMENT const FunctionEntry* add_function(const void* fn) noexcept {
  if (t_inside) return nullptr;
  t_inside = true;
  const FunctionEntry* result = nullptr;
  {
    std::lock_guard lock(g_mutex);
    if (const FunctionEntry* known = find_function(fn)) {  // another thread was first
      result = known;
    } else if (g_count >= kMaxFunctions) {
      warn_full();
    } else if (auto* entry = runtime::create_private<FunctionEntry>()) {
      if (g_measured < 0) g_measured = parperf_collector_active();
      entry->fn = fn;
      if (g_measured && !excluded_by_module_filter(fn))
        entry->site = parperf_collector_code_site(fn, static_cast<std::uint32_t>(format::SiteKind::function),
                                                  provisional_name(fn));
      result = insert(entry);
    }
  }
  t_inside = false;
  return result;
}

}  // namespace parperf::functions
