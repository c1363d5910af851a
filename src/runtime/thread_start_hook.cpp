// Registers threads when they start, not at their first API call, by interposing pthread_create.
//
// Preloaded into an unmodified program (`parperf run`), the runtime would otherwise never see the
// program's threads: they make no API calls. Registered at start, each thread gets a `program`
// interval from its start to its exit, so the report shows the threads of any program — how long
// each existed, how much of that it ran on a CPU — and later interval entries of the thread find
// it registered. Threads of the parallel runtimes' pools are caught the same way.
//
// Threads that a collector's runtime starts for itself (a communication library's progress
// threads, its network layers') are not the program's: a collector names those libraries
// (parperf_collector_foreign_threads), and their threads are left unregistered, so they never
// show up as processors that idle through the whole run, and are never sampled: what they do (poll
// the network, wait in epoll) is the model's, below whichever call of the program waits for it, as
// Scalasca's and HPCToolkit's users see it. They are counted, so that the report says how many.
//
// The wrapper passes everything through unchanged when the runtime is not measuring; otherwise the
// start routine and its argument travel to the new thread in a slot of a fixed table, so creating a
// thread allocates nothing from the program's malloc.
//
// Not in sanitizer builds: the sanitizers intercept pthread_create themselves, and a library that
// precedes theirs in the lookup order would reach libc's through RTLD_NEXT, bypassing them (their
// thread state would never be set up). Threads then register at their first API call, as without
// the hook.
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "runtime/collector_registry.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/runtime_thread.hpp"
#include "runtime/sanitizer_build.hpp"
#include "runtime/thread_state.hpp"

#if !defined(PARPERF_SANITIZED)

namespace parperf::runtime {

namespace {

// Threads started by a collector's runtime, left out (model_threads_left_out).
constinit std::atomic<std::uint32_t> g_model_threads{0};

using PthreadCreate = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

struct StartRoutine {
  void* (*function)(void*) = nullptr;
  void* argument = nullptr;
  std::atomic<bool> taken{false};  // in a slot of the table: between pthread_create and the thread's start
  bool from_table = false;
};

// Threads created and not yet started rarely number more than a few; beyond the table, a slot
// comes from private memory and is not reused.
constexpr unsigned kSlots = 256;
constinit StartRoutine g_slots[kSlots];
constinit std::atomic<unsigned> g_next_slot{0};

StartRoutine* take_slot() {
  for (unsigned tries = 0; tries < kSlots; ++tries) {
    StartRoutine& slot = g_slots[g_next_slot.fetch_add(1, std::memory_order_relaxed) % kSlots];
    if (!slot.taken.exchange(true, std::memory_order_acquire)) {
      slot.from_table = true;
      return &slot;
    }
  }
  return create_private<StartRoutine>();
}

void give_back(StartRoutine* slot) {
  if (slot->from_table) slot->taken.store(false, std::memory_order_release);
}

void* start_registered(void* packed) {
  auto* slot = static_cast<StartRoutine*>(packed);
  void* (*function)(void*) = slot->function;
  void* argument = slot->argument;
  give_back(slot);
  register_current_thread();
  return function(argument);
}

// Whether `function` lies in a library a collector named as its runtime's (by the file name of
// its module).
bool started_by_collector_runtime(void* (*function)(void*)) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(function), &info) == 0 || !info.dli_fname) return false;
  const char* slash = std::strrchr(info.dli_fname, '/');
  if (!is_foreign_thread_library(slash ? slash + 1 : info.dli_fname)) return false;
  g_model_threads.fetch_add(1, std::memory_order_relaxed);
  return true;
}

PthreadCreate next_pthread_create() {
  // Resolved once; a relaxed race between two first callers stores the same value twice.
  static std::atomic<PthreadCreate> next{nullptr};
  PthreadCreate f = next.load(std::memory_order_relaxed);
  if (!f) {
    f = reinterpret_cast<PthreadCreate>(dlsym(RTLD_NEXT, "pthread_create"));
    next.store(f, std::memory_order_relaxed);
  }
  return f;
}

}  // namespace
}  // namespace parperf::runtime

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread,
                                                                     const pthread_attr_t* attributes,
                                                                     void* (*function)(void*),
                                                                     void* argument) {
  using namespace parperf::runtime;
  const PthreadCreate next = next_pthread_create();
  if (!next) return EAGAIN;  // no pthread_create below us: nothing sensible can run
  if (!ensure_initialised() || lifecycle() != Lifecycle::active || started_by_collector_runtime(function))
    return next(thread, attributes, function, argument);
  StartRoutine* slot = take_slot();
  if (!slot) return next(thread, attributes, function, argument);
  slot->function = function;
  slot->argument = argument;
  const int result = next(thread, attributes, start_registered, slot);
  if (result != 0) give_back(slot);
  return result;
}

#endif  // no sanitizer

namespace parperf::runtime {

std::uint32_t model_threads_left_out() noexcept {
#if !defined(PARPERF_SANITIZED)
  return g_model_threads.load(std::memory_order_relaxed);
#else
  return 0;  // no interposer: such threads register at their first API call, if they make one
#endif
}

int create_runtime_thread(pthread_t* thread, void* (*function)(void*), void* argument) noexcept {
#if !defined(PARPERF_SANITIZED)
  const PthreadCreate create = next_pthread_create();
  if (!create) return EAGAIN;
#else
  auto create = &::pthread_create;  // no interposer: the sanitizer's, which must see the thread
#endif
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);  // the new thread inherits the mask
  const int result = create(thread, nullptr, function, argument);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return result;
}

}  // namespace parperf::runtime
