#include "runtime/sample_signal.hpp"

#include <atomic>

#include "runtime/diagnostics.hpp"
#include "runtime/next_definition.hpp"
#include "runtime/sampler.hpp"
#include "runtime/sanitizer_build.hpp"

#if !defined(PARPERF_SANITIZED)

namespace parperf::runtime {
namespace {

using Sigaction = int (*)(int, const struct sigaction*, struct sigaction*);
using Signal = sighandler_t (*)(int, sighandler_t);

std::atomic<Sigaction> g_next_sigaction{nullptr};
std::atomic<Signal> g_next_signal{nullptr};

// The program's disposition of a signal the sampler handles: two slots, the one in use published by
// index, so that the handler reads a whole one while the program sets the other (a program that sets
// it from two threads at once may lose one of the two settings, as with the kernel's own races).
struct ProgramDisposition {
  struct sigaction actions[2] = {};  // zero: SIG_DFL, the disposition the signal had at the start
  std::atomic<int> slot{0};
  std::atomic<bool> warned{false};
};
// The sampling signal's and SIGTRAP's (when the perf-event clocks trap: sampler.hpp).
constinit ProgramDisposition g_sample_signal{}, g_trap_signal{};

// The program's disposition of `signal` when the sampler handles it, else null (not ours).
ProgramDisposition* disposition_of(int signal) noexcept {
  if (signal == 0) return nullptr;
  if (signal == sampler_signal()) return &g_sample_signal;
  if (signal == sampler_trap_signal()) return &g_trap_signal;
  return nullptr;
}

struct sigaction program_action(const ProgramDisposition& d) noexcept {
  return d.actions[d.slot.load(std::memory_order_acquire)];
}

void set_program_action(ProgramDisposition& d, const struct sigaction& action) noexcept {
  const int next = 1 - d.slot.load(std::memory_order_relaxed);
  d.actions[next] = action;
  d.slot.store(next, std::memory_order_release);
}

bool is_handler(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) || (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN);
}

// The default disposition, which the sampler's handler replaced: the process ends (or stops, or
// goes on, for a signal whose default is that) as it would have without us.
void take_default_course(int signal) {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  next_sigaction(signal, &fallback, nullptr);
  raise(signal);
}

int program_sigaction(int signal, const struct sigaction* action, struct sigaction* previous) noexcept {
  ProgramDisposition* ours = disposition_of(signal);
  if (!ours) return next_sigaction(signal, action, previous);
  if (previous) *previous = program_action(*ours);
  if (action) {
    set_program_action(*ours, *action);
    if (is_handler(*action) && !ours->warned.exchange(true))
      warn(
          "the program installs a handler for signal %d, which sampling uses: its handler gets the program's "
          "own signals of that number, sampling goes on",
          signal);
  }
  return 0;
}

}  // namespace

int next_sigaction(int signal, const struct sigaction* action, struct sigaction* previous) noexcept {
  return next_definition(g_next_sigaction, "sigaction")(signal, action, previous);
}

void pass_to_program(int signal, siginfo_t* info, void* context) noexcept {
  ProgramDisposition* ours = disposition_of(signal);
  struct sigaction action {};  // SIG_DFL for a signal no longer ours
  if (ours) action = program_action(*ours);
  if (!is_handler(action)) {
    if (action.sa_handler == SIG_DFL) take_default_course(signal);
    return;  // SIG_IGN
  }
  if (action.sa_flags & SA_RESETHAND) {
    struct sigaction reset {};
    reset.sa_handler = SIG_DFL;
    set_program_action(*ours, reset);
  }
  // The program's handler runs with its own mask added, as the kernel would have run it; the signal
  // itself stays blocked unless it asked for SA_NODEFER.
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &action.sa_mask, &previous);
  if (action.sa_flags & SA_NODEFER) {
    sigset_t self;
    sigemptyset(&self);
    sigaddset(&self, signal);
    pthread_sigmask(SIG_UNBLOCK, &self, nullptr);
  }
  if (action.sa_flags & SA_SIGINFO)
    action.sa_sigaction(signal, info, context);
  else
    action.sa_handler(signal);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace parperf::runtime

extern "C" __attribute__((visibility("default"))) int sigaction(int signal, const struct sigaction* action,
                                                                struct sigaction* previous) {
  return parperf::runtime::program_sigaction(signal, action, previous);
}

// glibc's signal(): BSD semantics (SA_RESTART, the signal blocked in its handler).
extern "C" __attribute__((visibility("default"))) sighandler_t signal(int signal, sighandler_t handler) {
  using namespace parperf::runtime;
  if (!disposition_of(signal)) return next_definition(g_next_signal, "signal")(signal, handler);
  struct sigaction action {};
  struct sigaction previous {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, signal);
  action.sa_flags = SA_RESTART;
  program_sigaction(signal, &action, &previous);
  return previous.sa_handler;
}

#else  // sanitizer builds: the program's sigaction goes to the kernel

namespace parperf::runtime {

int next_sigaction(int signal, const struct sigaction* action, struct sigaction* previous) noexcept {
  return ::sigaction(signal, action, previous);
}

void pass_to_program(int signal, siginfo_t*, void*) noexcept {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  ::sigaction(signal, &fallback, nullptr);
  raise(signal);
}

}  // namespace parperf::runtime

#endif
