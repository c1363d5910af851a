#include "runtime/memory/trace_buffer.hpp"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "runtime/memory/sampling.hpp"
#include "runtime/memory/trace_file.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::memory {

constinit thread_local ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

thread_local bool t_refused __attribute__((tls_model("initial-exec"))) = false;

std::atomic<ThreadBuffer*> g_buffers{nullptr};  // every thread's buffer, newest first
std::atomic<std::uint32_t> g_next_thread{0};
std::atomic<std::uint64_t> g_dropped{0};
std::atomic<bool> g_finished{false};
// Serialises the trace file: flushes of full buffers (from any thread) and the final flush.
pthread_mutex_t g_file_mutex = PTHREAD_MUTEX_INITIALIZER;

pthread_once_t g_setup_once = PTHREAD_ONCE_INIT;

void set_up_process() {
  configure_sampling();
  install_exit_handlers();
}

ThreadBuffer* create_buffer() noexcept {
  // Every thread waits here until the sampling setting is read: a thread that recorded before it
  // would keep all of its first accesses, and a kept block would then end in the middle.
  pthread_once(&g_setup_once, set_up_process);
  // Private memory, not the program's malloc (private_memory.hpp), which may moreover be
  // instrumented code (a program-supplied allocator).
  void* memory = runtime::allocate_private(sizeof(ThreadBuffer), alignof(ThreadBuffer));
  if (memory == nullptr) return nullptr;
  auto* buffer = new (memory) ThreadBuffer;
  const std::uint32_t index = g_next_thread.fetch_add(1, std::memory_order_relaxed);
  buffer->thread = static_cast<std::uint16_t>(index < 0xffffu ? index : 0xffffu);
  buffer->sample_threshold = g_sample_threshold.load(std::memory_order_relaxed);
  ThreadBuffer* head = g_buffers.load(std::memory_order_relaxed);
  do {
    buffer->next = head;
  } while (
      !g_buffers.compare_exchange_weak(head, buffer, std::memory_order_release, std::memory_order_relaxed));
  return buffer;
}

}  // namespace

ThreadBuffer* create_thread_buffer() noexcept {
  if (t_refused || g_finished.load(std::memory_order_acquire)) {
    g_dropped.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  // Creating the buffer may run instrumented code (pthread_once's callee): refuse re-entry.
  t_refused = true;
  t_buffer = create_buffer();
  t_refused = t_buffer == nullptr;
  if (t_buffer == nullptr) g_dropped.fetch_add(1, std::memory_order_relaxed);
  return t_buffer;
}

void flush_buffer(ThreadBuffer& buffer) noexcept {
  pthread_mutex_lock(&g_file_mutex);
  if (!g_finished.load(std::memory_order_relaxed) && !write_accesses(buffer.records, buffer.used))
    g_dropped.fetch_add(buffer.used, std::memory_order_relaxed);
  buffer.used = 0;
  pthread_mutex_unlock(&g_file_mutex);
}

namespace {

void finish_locked() noexcept {
  if (g_finished.exchange(true)) return;
  // A process that never made an instrumented access (a tool's parent process, a helper it
  // forked before any access) writes no trace.
  if (g_next_thread.load(std::memory_order_relaxed) == 0) return;
  // Other threads may still run (a detached thread at exit): their buffers are taken as they
  // are; accesses they make from now on are counted as dropped.
  for (ThreadBuffer* buffer = g_buffers.load(std::memory_order_acquire); buffer; buffer = buffer->next) {
    const std::uint32_t used = buffer->used;
    if (used > 0 && !write_accesses(buffer->records, used))
      g_dropped.fetch_add(used, std::memory_order_relaxed);
    buffer->used = 0;
  }
  close_trace(g_dropped.load(std::memory_order_relaxed));
}

}  // namespace

void finish_trace() noexcept {
  pthread_mutex_lock(&g_file_mutex);
  finish_locked();
  pthread_mutex_unlock(&g_file_mutex);
}

void finish_trace_after_signal() noexcept {
  if (pthread_mutex_trylock(&g_file_mutex) != 0) return;
  finish_locked();
  pthread_mutex_unlock(&g_file_mutex);
}

}  // namespace parperf::memory
