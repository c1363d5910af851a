#include "runtime/user_events.hpp"

#include <cstring>
#include <new>

#include "runtime/interval_tree.hpp"
#include "runtime/plain_mutex.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::runtime {
namespace {

EventKind g_kinds[kMaxEventKinds];
std::atomic<std::uint32_t> g_kind_count{0};
PlainMutex g_kinds_mutex;

const char* copy_or_empty(const char* text) {
  const char* source = text ? text : "";
  return copy_text_private(source, std::strlen(source));
}

}  // namespace

std::uint32_t create_event_kind(const char* name, const char* description) noexcept {
  std::lock_guard lock(g_kinds_mutex);
  const std::uint32_t count = g_kind_count.load(std::memory_order_relaxed);
  if (count >= kMaxEventKinds) return 0;
  const char* name_copy = copy_or_empty(name);
  const char* description_copy = copy_or_empty(description);
  if (!name_copy || !description_copy) return 0;
  g_kinds[count] = EventKind{name_copy, description_copy};
  g_kind_count.store(count + 1, std::memory_order_release);
  return count + 1;
}

const EventKind* event_kind(std::uint32_t id) noexcept {
  if (id == 0 || id > g_kind_count.load(std::memory_order_acquire)) return nullptr;
  return &g_kinds[id - 1];
}

std::uint32_t event_kind_count() noexcept { return g_kind_count.load(std::memory_order_acquire); }

EventStats* event_stats_for(Node& node, std::uint32_t event) noexcept {
  EventStats* last = nullptr;
  for (EventStats* s = node.first_event.load(std::memory_order_relaxed); s;
       s = s->next.load(std::memory_order_relaxed)) {
    if (s->event == event) return s;
    last = s;
  }
  EventStats* stats = create_private<EventStats>();
  if (!stats) return nullptr;
  stats->event = event;
  if (last)
    last->next.store(stats, std::memory_order_release);
  else
    node.first_event.store(stats, std::memory_order_release);
  return stats;
}

}  // namespace parperf::runtime
