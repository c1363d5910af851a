// The user-event part of the C API: parperf_event_create / start / end / atomic.
#include <cstdarg>
#include <cstdio>

#include "parperf/parperf.h"
#include "runtime/clock.hpp"
#include "runtime/collector_api.h"
#include "runtime/diagnostics.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/trace_points.hpp"
#include "runtime/user_events.hpp"

namespace parperf::runtime {
namespace {

enum class Phase { start, end, atomic };

// `args` is null for callers without varargs: the description is then kept as written.
void remember_first_description(EventStats& stats, const EventKind& kind, va_list* args) {
  if (stats.first_description.load(std::memory_order_relaxed)) return;
  constexpr std::size_t kMaxDescription = 256;
  auto* text = static_cast<char*>(allocate_private(kMaxDescription, 1));
  if (!text) return;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if (args)
    std::vsnprintf(text, kMaxDescription, kind.description, *args);
  else
    std::snprintf(text, kMaxDescription, "%s", kind.description);
#pragma GCC diagnostic pop
  stats.first_description.store(text, std::memory_order_release);
}

// The event's description with this call's arguments, for the event trace (args consumed).
std::size_t describe(char* text, std::size_t size, const EventKind& kind, va_list* args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  const int n = args ? std::vsnprintf(text, size, kind.description, *args)
                     : std::snprintf(text, size, "%s", kind.description);
#pragma GCC diagnostic pop
  return n < 0 ? 0 : static_cast<std::size_t>(n) < size ? static_cast<std::size_t>(n) : size - 1;
}

void trace_described(ThreadState& t, format::TraceEventKind trace_kind, unsigned event, const EventKind& kind,
                     va_list* args, std::uint64_t now) {
  char text[256];
  std::size_t length = 0;
  if (args) {
    va_list copy;
    va_copy(copy, *args);
    length = describe(text, sizeof text, kind, &copy);
    va_end(copy);
  } else {
    length = describe(text, sizeof text, kind, nullptr);
  }
  trace_user_event(t, trace_kind, event, std::string_view(text, length), now);
}

void warn_unknown_event(unsigned event) {
  static std::atomic<int> reported{0};
  if (reported.fetch_add(1, std::memory_order_relaxed) < 8)
    warn("user event %u was never created with parperf_event_create; ignored", event);
}

// Events nest like intervals: an end that closes an event while one started after it is still open
// is a mistake in the program (or two events that overlap on purpose). Both keep being measured,
// each from its start to its end.
void warn_out_of_order(const EventKind& ended, unsigned still_open) {
  static std::atomic<int> reported{0};
  if (reported.fetch_add(1, std::memory_order_relaxed) >= 8) return;
  const EventKind* inner = event_kind(still_open);
  warn(
      "user event '%s' ended while '%s', started after it on this thread, is still open: events end in the "
      "reverse order of their starts (each is still timed from its own start to its own end)",
      ended.name, inner ? inner->name : "?");
}

void record(unsigned event, Phase phase, va_list* args) {
  ThreadState* t = current_thread();
  if (!t || !recording()) return;
  const EventKind* kind = event_kind(event);
  if (!kind) {
    warn_unknown_event(event);
    return;
  }
  const std::uint32_t depth = t->depth.load(std::memory_order_relaxed);
  if (t->unrecorded) return;  // inside an unrecorded interval
  Node* node = t->frames[depth].node.get();
  const std::uint64_t now = now_ticks();

  if (phase == Phase::end) {
    for (int i = t->open_event_count - 1; i >= 0; --i) {
      OpenEvent& open = t->open_events[i];
      if (open.event != event) continue;
      if (i + 1 < t->open_event_count)
        warn_out_of_order(*kind, t->open_events[t->open_event_count - 1].event);
      const std::uint64_t duration = ticks_between(open.begin_ticks, now);
      open.stats->durations.record(duration);
      trace_user_event(*t, format::TraceEventKind::event_end, event, {}, now);
      for (int j = i; j + 1 < t->open_event_count; ++j) t->open_events[j] = t->open_events[j + 1];
      --t->open_event_count;
      return;
    }
    static std::atomic<int> reported{0};
    if (reported.fetch_add(1, std::memory_order_relaxed) < 8)
      warn(
          "user event '%s' ended without a start on this thread (or ended more often than it started); this "
          "end is ignored",
          kind->name);
    return;
  }

  EventStats* stats = event_stats_for(*node, event);
  if (!stats) return;
  if (t->trace && kind->description)
    trace_described(
        *t,
        phase == Phase::atomic ? format::TraceEventKind::event_atomic : format::TraceEventKind::event_start,
        event, *kind, args, now);
  else if (t->trace)
    trace_user_event(
        *t,
        phase == Phase::atomic ? format::TraceEventKind::event_atomic : format::TraceEventKind::event_start,
        event, {}, now);
  remember_first_description(*stats, *kind, args);
  if (phase == Phase::atomic) {
    stats->atomics.add(1);
    return;
  }
  stats->starts.add(1);
  if (t->open_event_count < ThreadState::kMaxOpenEvents)
    t->open_events[t->open_event_count++] = OpenEvent{event, stats, now};
}

}  // namespace
}  // namespace parperf::runtime

using namespace parperf::runtime;

extern "C" {

unsigned parperf_event_create(const char* name, const char* description_format) {
  if (!ensure_initialised()) return 0;
  return create_event_kind(name, description_format);
}

void parperf_event_start(unsigned event, ...) {
  va_list args;
  va_start(args, event);
  record(event, Phase::start, &args);
  va_end(args);
}

void parperf_event_end(unsigned event, ...) {
  va_list args;
  va_start(args, event);
  record(event, Phase::end, &args);
  va_end(args);
}

void parperf_event_atomic(unsigned event, ...) {
  va_list args;
  va_start(args, event);
  record(event, Phase::atomic, &args);
  va_end(args);
}

void parperf_collector_user_event(unsigned event, int phase, va_list* args) {
  if (phase < 0 || phase > 2) return;
  record(event, static_cast<Phase>(phase), args);
}

void parperf_event_record(unsigned event, int phase) {
  if (phase < 0 || phase > 2) return;
  record(event, static_cast<Phase>(phase), nullptr);
}

}  // extern "C"
