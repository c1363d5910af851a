// Writes the profile when the program leaves through _exit() or _Exit(), which skip the atexit
// handlers and library destructors that normally write it (quick_exit() is covered by an
// at_quick_exit handler in lifecycle.cpp).
//
// Only the process that initialised the runtime writes: a child created with vfork() shares the
// parent's memory and calls _exit() on its way out (after a failed exec); writing from it would
// mark the run finished in the parent's memory. Not in sanitizer builds, for the reason given in
// thread_start_hook.cpp (the sanitizers intercept _exit themselves).
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "format/records.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/sanitizer_build.hpp"

#if !defined(PARPERF_SANITIZED)

namespace parperf::runtime {
namespace {

using ExitFunction = void (*)(int);

[[noreturn]] void leave(const char* name, int status) {
  if (lifecycle() == Lifecycle::active && getpid() == initialising_pid())
    finish_run(static_cast<int>(format::EndReason::exit), 0);
  if (auto next = reinterpret_cast<ExitFunction>(dlsym(RTLD_NEXT, name))) next(status);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

}  // namespace
}  // namespace parperf::runtime

extern "C" __attribute__((visibility("default"), noreturn)) void _exit(int status) {
  parperf::runtime::leave("_exit", status);
}

extern "C" __attribute__((visibility("default"), noreturn)) void _Exit(int status) {
  parperf::runtime::leave("_Exit", status);
}

#endif  // no sanitizer
