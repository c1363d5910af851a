/* Hooks that do nothing, preloaded into the instrumented loop by bench/locality/overhead.sh: what
 * clang's call-per-access instrumentation costs by itself (the call, and the registers the loop
 * must save around it), the floor under any collector behind the same hooks. */
#define EMPTY_HOOK(name) \
  void name(void* address) { (void)address; }
EMPTY_HOOK(__sanitizer_cov_load1)
EMPTY_HOOK(__sanitizer_cov_load2)
EMPTY_HOOK(__sanitizer_cov_load4)
EMPTY_HOOK(__sanitizer_cov_load8)
EMPTY_HOOK(__sanitizer_cov_load16)
EMPTY_HOOK(__sanitizer_cov_store1)
EMPTY_HOOK(__sanitizer_cov_store2)
EMPTY_HOOK(__sanitizer_cov_store4)
EMPTY_HOOK(__sanitizer_cov_store8)
EMPTY_HOOK(__sanitizer_cov_store16)
