#include "runtime/thread_state.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/clock.hpp"
#include "runtime/collector.hpp"
#include "runtime/collector_api.h"
#include "runtime/diagnostics.hpp"
#include "runtime/os_cpu_time.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/recording_switch.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/sampler.hpp"
#include "runtime/site_registry.hpp"
#include "runtime/trace_writer.hpp"

namespace parperf::runtime {

namespace thread_detail {
constinit thread_local ThreadState* current __attribute__((tls_model("initial-exec"))) = nullptr;
}  // namespace thread_detail

namespace {

std::atomic<ThreadState*> g_threads{nullptr};
std::atomic<std::uint32_t> g_thread_count{0};
std::atomic<std::uint32_t> g_threads_not_measured{0};

// Set when the thread has exited, so late calls (from other thread-local destructors) are
// ignored instead of registering it again.
thread_local bool t_exited __attribute__((tls_model("initial-exec"))) = false;

// Closes the thread's intervals when it exits, through a thread-specific key's destructor. Not a
// C++ thread_local with a destructor: registering one (__cxa_thread_atexit) allocates from the
// program's malloc in every thread. The key is created when the runtime starts, among the
// process's first keys, whose values live in the thread descriptor (no allocation either).
pthread_key_t g_exit_key;
bool g_exit_key_created = false;

void on_thread_exit(void* value) {
  auto* thread = static_cast<ThreadState*>(value);
  if (thread && thread_detail::current == thread) close_current_thread(now_ticks());
}

}  // namespace

ThreadState* register_current_thread() noexcept {
  if (t_exited) return nullptr;
  if (ThreadState* existing = thread_detail::current) return existing;
  if (!ensure_initialised()) return nullptr;
  // Each thread keeps ~15 KB for its lifetime and beyond (its data outlives it): a program that
  // starts a thread per task must not grow without bound.
  if (g_thread_count.load(std::memory_order_relaxed) >= config().max_threads) {
    // Counted, so that the profile (and the report) says how many threads are missing.
    if (g_threads_not_measured.fetch_add(1, std::memory_order_relaxed) == 0)
      warn("more than %u threads: later threads are not measured (PARPERF_MAX_THREADS)",
           config().max_threads);
    t_exited = true;  // do not ask again for this thread
    return nullptr;
  }

  auto* t = create_private<ThreadState>();
  if (!t) return nullptr;
  t->os_tid = static_cast<std::int64_t>(syscall(SYS_gettid));
  t->start_ticks = now_ticks();
  t->root = t->arena.allocate();
  if (!t->root) return nullptr;
  t->root->site = program_site();
  t->node_count = 1;
  register_site(program_site());
  Frame& root_frame = t->frames[0];
  root_frame.site.set(program_site());
  root_frame.node.set(t->root);
  root_frame.begin_ticks.set(t->start_ticks);
  root_frame.paused_at_begin.set(paused_ticks(t->start_ticks));
  root_frame.mode.set(FrameMode::record);
  t->root->last_begin_ticks.set(t->start_ticks);
  sample_os_cpu_time(*t, t->start_ticks, nullptr);
  t->index = g_thread_count.fetch_add(1, std::memory_order_relaxed);
  // After the index (threads keep the order they arrived in), before the trace and the thread are
  // published: nobody sees the calibration.
  t->probe_costs = calibrate_probes(*t);
  t->trace = attach_thread_trace(t->index);
  ThreadState* head = g_threads.load(std::memory_order_relaxed);
  do t->next = head;
  while (!g_threads.compare_exchange_weak(head, t, std::memory_order_release, std::memory_order_relaxed));

  thread_detail::current = t;
  if (g_exit_key_created) pthread_setspecific(g_exit_key, t);
  // The first sample can arrive as the timer is armed, inside parperf's own registration (for the
  // main thread, in the runtime's load-time constructor): counted with the start-up, not walked into
  // parperf's functions.
  t->process_phase.set(PARPERF_PROCESS_STARTING_UP);
  start_thread_sampling(*t);
  t->process_phase.set(PARPERF_PROCESS_RUNNING);
  return t;
}

void close_current_thread(std::uint64_t now) noexcept {
  ThreadState* t = thread_detail::current;
  if (!t) return;
  stop_thread_sampling(*t);
  std::uint32_t depth = t->depth.load(std::memory_order_relaxed);
  Node* innermost = t->frames[depth].node.get();
  sample_os_cpu_time(*t, now, innermost);
  for (;; --depth) {
    Frame& f = t->frames[depth];
    Node* node = f.node.get();
    if (f.mode.get() == FrameMode::record) {
      const std::uint64_t iteration_begin = f.iteration_begin_ticks.get();
      if (iteration_begin) node->record_iteration(ticks_between(iteration_begin, now));
      node->record_entry(f.begin_ticks.get(),
                         recorded_ticks(f.begin_ticks.get(), f.paused_at_begin.get(), now));
    }
    if (depth == 0) break;
  }
  t->depth.store(0, std::memory_order_release);
  t->unrecorded = 0;
  thread_unparked(*t, now);  // a pool thread ends while parked
  t->end_ticks.set(now);
  t->ended.set(true);
  thread_detail::current = nullptr;
  t_exited = true;
}

void set_thread_kind(ThreadState& t, format::ThreadKind kind) noexcept { t.kind.set(kind); }

// A pause of the recording while parked is not parked time either: the `program` interval, from
// which the analysis takes the parked time, leaves it out already.
void thread_parked(ThreadState& t, std::uint64_t now) noexcept {
  if (t.parked_since.get() != 0) return;
  t.parked_paused_at.set(paused_ticks(now));
  t.parked_since.set(now);
}

void thread_unparked(ThreadState& t, std::uint64_t now) noexcept {
  if (const std::uint64_t since = t.parked_since.get()) {
    t.parked_ticks.add(recorded_ticks(since, t.parked_paused_at.get(), now));
    t.parked_since.set(0);
  }
}

void prepare_thread_exit_hook() noexcept {
  if (!g_exit_key_created) g_exit_key_created = pthread_key_create(&g_exit_key, on_thread_exit) == 0;
}

std::uint32_t threads_not_measured() noexcept {
  return g_threads_not_measured.load(std::memory_order_relaxed);
}

ThreadState* first_thread() noexcept { return g_threads.load(std::memory_order_acquire); }
std::uint32_t thread_count() noexcept { return g_thread_count.load(std::memory_order_acquire); }

}  // namespace parperf::runtime
