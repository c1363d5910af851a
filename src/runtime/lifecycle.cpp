// Start-up and the ways a measured process ends.
//
// Start: when the library is loaded (preloaded by `parperf run` or linked) or on the first API
// call, whichever comes first. End: the final profile is written once — by atexit, at_quick_exit,
// the library destructor (dlclose, or exit paths that skip atexit handlers registered before
// ours), _exit/_Exit (exit_hook.cpp), or a fatal signal, after which the signal is re-raised with the
// program's previous disposition so the process dies exactly as it would have without us.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "format/records.hpp"
#include "runtime/clock.hpp"
#include "runtime/collector_api.h"
#include "runtime/diagnostics.hpp"
#include "runtime/pending_samples.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/profile_writer.hpp"
#include "runtime/recording_switch.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/sampler.hpp"
#include "runtime/signal_safe_wait.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/trace_writer.hpp"

namespace parperf::runtime {

namespace state_detail {
std::atomic<int> lifecycle{static_cast<int>(Lifecycle::uninitialised)};
std::atomic<bool> recording{false};
Config config;
std::uint64_t cpu_sample_ticks = 0;
}  // namespace state_detail

namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTERM, SIGINT};
struct sigaction g_previous_actions[sizeof kFatalSignals / sizeof kFatalSignals[0]];
PlainMutex g_init_mutex;
std::atomic<bool> g_final_written{false};
std::atomic<bool> g_final_done{false};  // the final profile has been written (or failed to be)

// A signal handler that lost the race to write the final profile must not end the process while
// the winner (another thread's handler, or the exit path) is still writing: a process-directed
// signal goes to any thread, and a launcher that kills a job sends SIGTERM to the process and to
// its process group, so two handlers run at once. Waits up to two seconds (async-signal-safe).
void wait_for_final_profile() {
  wait_while([] { return !g_final_done.load(std::memory_order_acquire); }, 2000);
}
int g_initialising_pid = 0;

int signal_slot(int signal) {
  for (std::size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i)
    if (kFatalSignals[i] == signal) return static_cast<int>(i);
  return -1;
}

// Whether the kernel raised the signal for the instruction that faulted (returning from the handler
// re-executes it), rather than someone sending it with kill, raise, tgkill or sigqueue.
bool raised_by_fault(int signal, const siginfo_t* info) {
  if (signal != SIGSEGV && signal != SIGBUS && signal != SIGFPE) return false;
  return info && info->si_code > 0;  // SI_USER, SI_TKILL, SI_QUEUE, ... are <= 0
}

void on_fatal_signal(int signal, siginfo_t* info, void*) {
  const int saved_errno = errno;
  if (!g_final_written.exchange(true)) {
    // `parperf run` reports the signal itself; a program run directly hears it from us.
    if (write_profile(format::EndReason::signal, signal) && !config().quiet &&
        !config().launched_by_parperf) {
      SignalSafeLine line;
      line << "signal " << static_cast<long long>(signal) << " received; profile written to '"
           << config().output_dir << "'";
      line.emit();
    }
    close_trace();
    g_final_done.store(true, std::memory_order_release);
  } else {
    wait_for_final_profile();
  }
  // Restore what the program had, then let the signal take its course: a fault re-executes the
  // faulting instruction when we return; a signal that was sent (raise(SIGSEGV), kill -BUS) would
  // not come again, so it is raised anew, pending until we return.
  const int slot = signal_slot(signal);
  if (slot >= 0) sigaction(signal, &g_previous_actions[slot], nullptr);
  if (!raised_by_fault(signal, info)) raise(signal);
  errno = saved_errno;
}

// A stack overflow raises SIGSEGV with no stack left to run a handler on: the thread that loads
// the runtime (the main thread) gets a spare one, unless the program set its own. Other threads
// would each need theirs (sigaltstack is per thread); an overflow there ends without a profile.
alignas(16) char g_alternate_stack[64 * 1024];

void install_alternate_stack() {
  stack_t current{};
  if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
  stack_t spare{};
  spare.ss_sp = g_alternate_stack;
  spare.ss_size = sizeof g_alternate_stack;
  sigaltstack(&spare, nullptr);
}

void install_signal_handlers() {
  install_alternate_stack();
  for (std::size_t i = 0; i < sizeof kFatalSignals / sizeof kFatalSignals[0]; ++i) {
    struct sigaction current {};
    if (sigaction(kFatalSignals[i], nullptr, &current) != 0) continue;
    // Leave alone what the program (or its parent, e.g. nohup's SIG_IGN) already decided.
    if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO)) continue;
    struct sigaction action {};
    action.sa_sigaction = on_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(kFatalSignals[i], &action, &g_previous_actions[i]);
  }
}

void finish_at_exit() { finish_run(static_cast<int>(format::EndReason::exit), 0); }

// A child forked without exec inherits the runtime with the parent's data and rank: were it to
// write at its exit, it would replace the parent's profile. It stops measuring instead (a child
// that execs starts a fresh runtime, which PARPERF_PID then keeps silent).
void stop_in_forked_child() {
  state_detail::lifecycle.store(static_cast<int>(Lifecycle::dormant), std::memory_order_release);
  g_final_written.store(true);
}

}  // namespace

bool ensure_initialised() noexcept {
  const Lifecycle now = lifecycle();
  if (now != Lifecycle::uninitialised) return now == Lifecycle::active;
  std::lock_guard lock(g_init_mutex);
  if (lifecycle() != Lifecycle::uninitialised) return lifecycle() == Lifecycle::active;

  load_config(state_detail::config);
  if (!state_detail::config.enabled) {
    state_detail::lifecycle.store(static_cast<int>(Lifecycle::dormant), std::memory_order_release);
    return false;
  }
  clock_init();
  state_detail::cpu_sample_ticks = static_cast<std::uint64_t>(
      static_cast<double>(state_detail::config.cpu_sample_ns) * estimated_ticks_per_ns());
  capture_process_facts();
  open_run_directory();
  prepare_thread_exit_hook();
  if (state_detail::config.trace) start_trace();
  start_recording_switch(state_detail::config.start_recording, now_ticks());
  if (state_detail::config.install_signal_handlers) install_signal_handlers();
  start_sampling();
  g_initialising_pid = getpid();
  std::atexit(finish_at_exit);
  at_quick_exit(finish_at_exit);
  pthread_atfork(nullptr, nullptr, stop_in_forked_child);
  state_detail::lifecycle.store(static_cast<int>(Lifecycle::active), std::memory_order_release);
  return true;
}

int initialising_pid() noexcept { return g_initialising_pid; }

void finish_run(int reason, int signal) noexcept {
  if (lifecycle() != Lifecycle::active) return;
  if (g_final_written.exchange(true)) {  // a signal handler on another thread is writing it: let it finish
    wait_for_final_profile();
    return;
  }
  // The calling thread's intervals are not closed here: one still open (exit() inside it) is
  // written as open, like those of every other thread; its `program` interval ends with the
  // process (profile_writer.cpp).
  // Writing the profile is parperf's shut-down, not the program's time: a sample taken meanwhile on
  // this thread is counted with the process's shut-down (sampler.cpp), not walked into parperf's
  // own functions.
  // Its samples waiting in a buffer are the program's, taken before.
  if (ThreadState* t = thread_detail::current) {
    take_pending_samples(*t);
    t->process_phase.set(PARPERF_PROCESS_SHUTTING_DOWN);
  }
  const bool written = write_profile(static_cast<format::EndReason>(reason), signal);
  close_trace();
  g_final_done.store(true, std::memory_order_release);
  state_detail::lifecycle.store(static_cast<int>(Lifecycle::finished), std::memory_order_release);
  if (written && !config().quiet && !config().launched_by_parperf)
    warn("profile written to '%s' (see: parperf report %s)", config().output_dir, config().output_dir);
}

}  // namespace parperf::runtime

// Initialise when the library is loaded, so the program interval covers main() entirely. This is
// the runtime's only load-time code; it has no effect when the runtime is disabled.
__attribute__((constructor)) static void parperf_on_load() {
  if (parperf::runtime::ensure_initialised()) parperf::runtime::register_current_thread();
}

__attribute__((destructor)) static void parperf_on_unload() {
  parperf::runtime::finish_run(static_cast<int>(parperf::format::EndReason::exit), 0);
}
