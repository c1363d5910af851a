#include "runtime/thread_state.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

#include "runtime/clock.hpp"
#include "runtime/diagnostics.hpp"
#include "runtime/os_cpu_time.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/site_registry.hpp"

namespace parperf::runtime {

namespace thread_detail {
constinit thread_local ThreadState* current __attribute__((tls_model("initial-exec"))) = nullptr;
}  // namespace thread_detail

namespace {

std::atomic<ThreadState*> g_threads{nullptr};
std::atomic<std::uint32_t> g_thread_count{0};

// Set when the thread has exited, so late calls (from other thread-local destructors) are
// ignored instead of registering it again.
thread_local bool t_exited __attribute__((tls_model("initial-exec"))) = false;

// Closes the thread's intervals when it exits. Trivially constructible, so declaring it costs
// nothing; the C++ runtime registers the destructor on the thread's first use of it.
struct ThreadExitHook {
  ThreadState* thread = nullptr;
  ~ThreadExitHook() {
    if (thread && thread_detail::current == thread) close_current_thread(now_ticks());
  }
};
thread_local ThreadExitHook t_exit_hook;

}  // namespace

ThreadState* register_current_thread() noexcept {
  if (t_exited) return nullptr;
  if (ThreadState* existing = thread_detail::current) return existing;
  if (!ensure_initialised()) return nullptr;
  // Each thread keeps ~15 KB for its lifetime and beyond (its data outlives it): a program that
  // starts a thread per task must not grow without bound.
  if (g_thread_count.load(std::memory_order_relaxed) >= config().max_threads) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      warn("more than %u threads: later threads are not measured (PARPERF_MAX_THREADS)",
           config().max_threads);
    t_exited = true;  // do not ask again for this thread
    return nullptr;
  }

  void* memory = std::aligned_alloc(alignof(ThreadState), (sizeof(ThreadState) + 63) / 64 * 64);
  if (!memory) return nullptr;
  auto* t = new (memory) ThreadState();
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
  root_frame.mode.set(FrameMode::record);
  t->root->last_begin_ticks.set(t->start_ticks);
  sample_os_cpu_time(*t, t->start_ticks, nullptr);

  t->index = g_thread_count.fetch_add(1, std::memory_order_relaxed);
  ThreadState* head = g_threads.load(std::memory_order_relaxed);
  do t->next = head;
  while (!g_threads.compare_exchange_weak(head, t, std::memory_order_release, std::memory_order_relaxed));

  thread_detail::current = t;
  t_exit_hook.thread = t;
  return t;
}

void close_current_thread(std::uint64_t now) noexcept {
  ThreadState* t = thread_detail::current;
  if (!t) return;
  std::uint32_t depth = t->depth.load(std::memory_order_relaxed);
  Node* innermost = t->frames[depth].node.get();
  sample_os_cpu_time(*t, now, innermost);
  for (;; --depth) {
    Frame& f = t->frames[depth];
    Node* node = f.node.get();
    if (f.mode.get() == FrameMode::record) {
      const std::uint64_t iteration_begin = f.iteration_begin_ticks.get();
      if (iteration_begin) node->record_iteration(ticks_between(iteration_begin, now));
      node->record_entry(f.begin_ticks.get(), ticks_between(f.begin_ticks.get(), now));
    }
    if (depth == 0) break;
  }
  t->depth.store(0, std::memory_order_release);
  t->unrecorded = 0;
  if (const std::uint64_t since = t->parked_since.get()) {  // a pool thread ends while parked
    t->parked_ticks.add(ticks_between(since, now));
    t->parked_since.set(0);
  }
  t->end_ticks.set(now);
  t->ended.set(true);
  thread_detail::current = nullptr;
  t_exited = true;
}

ThreadState* first_thread() noexcept { return g_threads.load(std::memory_order_acquire); }
std::uint32_t thread_count() noexcept { return g_thread_count.load(std::memory_order_acquire); }

}  // namespace parperf::runtime
