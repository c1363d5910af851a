// When the trace is finished: at normal exit (a library destructor, which runs after the
// program's own destructors and atexit handlers since the program depends on this library), and
// on the fatal signals, so that a program that crashes still leaves the accesses it made up to
// the crash. The handlers are installed with the first buffer, not by a global constructor.
#include <signal.h>

#include <cstring>

#include "runtime/memory/trace_buffer.hpp"

namespace parperf::memory {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
struct sigaction g_previous[sizeof kFatalSignals / sizeof kFatalSignals[0]];

void on_fatal_signal(int signal, siginfo_t* info, void* context) {
  finish_trace_after_signal();
  // Hand the signal to whoever had it before (the program, a debugger's runtime) or let it kill.
  for (std::size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i) {
    if (kFatalSignals[i] != signal) continue;
    const struct sigaction& previous = g_previous[i];
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
      previous.sa_sigaction(signal, info, context);
      return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
      previous.sa_handler(signal);
      return;
    }
    if (previous.sa_handler == SIG_IGN) return;
  }
  struct sigaction fallback;
  std::memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigaction(signal, &fallback, nullptr);
  raise(signal);
}

}  // namespace

void install_exit_handlers() noexcept {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i)
    sigaction(kFatalSignals[i], &action, &g_previous[i]);
}

}  // namespace parperf::memory

__attribute__((destructor)) static void parperf_memory_at_exit() { parperf::memory::finish_trace(); }
