// dlclose: a library unloaded is marked gone in the sampler's code table (code_modules.hpp) as soon
// as it is unmapped. A frame-pointer walk reads stale words on the stack, and one that points into
// the unloaded code must not be followed: its bytes are no longer mapped (parallel runtimes close
// their plug-in components with dlclose when they finalize; a sample right after crashed the
// program). The library being closed is marked gone before the loader unmaps it, and everything
// still loaded is marked back afterwards (a dlclose that only drops a reference unloads nothing).
//
// Not in sanitizer builds, whose runtimes intercept dlclose themselves (as uninterrupted_calls.cpp).
#include <dlfcn.h>
#include <link.h>

#include <atomic>

#include "runtime/code_modules.hpp"
#include "runtime/next_definition.hpp"
#include "runtime/sanitizer_build.hpp"

#if !defined(PARPERF_SANITIZED)

extern "C" __attribute__((visibility("default"))) int dlclose(void* handle) {
  static constinit std::atomic<int (*)(void*)> next{nullptr};
  const auto call = parperf::runtime::next_definition(next, "dlclose");
  // Without sampling the table is empty: nothing to mark, the loader's own call alone.
  if (parperf::runtime::code_module_count() == 0) return call(handle);
  link_map* map = nullptr;
  // A handle dlopen gave (the loader's own dlclose takes no other).
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map) parperf::runtime::forget_code_module_at(map->l_addr);
  const int result = call(handle);
  parperf::runtime::forget_unloaded_code_modules();
  return result;
}

#endif  // no sanitizer
