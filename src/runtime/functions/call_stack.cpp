#include "runtime/functions/call_stack.hpp"

#include "runtime/private_memory.hpp"

namespace parperf::functions {
namespace {

constinit thread_local CallStack* t_stack __attribute__((tls_model("initial-exec"))) = nullptr;

}  // namespace

PARPERF_NO_INSTRUMENT CallStack* current_call_stack() noexcept {
  if (__builtin_expect(t_stack != nullptr, 1)) return t_stack;
  t_stack = runtime::create_private<CallStack>();
  return t_stack;
}

}  // namespace parperf::functions
