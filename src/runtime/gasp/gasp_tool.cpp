// The GASP 1.5 tool entry points (include/parperf/gasp.h): what a GASP-enabled UPC compiler's code
// and runtime call. Each UPC event becomes what upc_events.hpp maps it to: an operation at the
// event's file:line recorded through the collector API when it ends, an interval entered and left
// on the annotation API's stack, or a user event of the core's table.
//
// Hot path (an event of a known site on a thread): a table lookup, a cache probe keyed by the file
// name's address, the line and the tag, one clock read per start and end, and, at the end, the
// collector API's record. No lock, no allocation, no system call; the first event of a site on a
// thread interns it (a lock, once).
#include <atomic>
#include <cstdarg>
#include <cstdio>

#include "parperf/gasp.h"
#include "parperf/parperf.h"
#include "runtime/collector_api.h"
#include "runtime/gasp/tool_context.hpp"
#include "runtime/gasp/upc_events.hpp"

namespace parperf::gasp {
namespace {

constexpr unsigned kUserTags = GASP_UPC_USEREVT_END - GASP_UPC_USEREVT_START + 1;
// gasp_create_event's tags, in order: the core's user-event id of each (0 until it is created).
std::atomic<std::uint32_t> g_user_event_ids[kUserTags];
std::atomic<unsigned> g_user_event_count{0};

// Messages for the program's author, a few of each kind (a mistake repeats in a loop).
bool should_report(std::atomic<int>& reported) {
  return reported.fetch_add(1, std::memory_order_relaxed) < 4;
}

const char* shown(const char* file) { return file ? file : "?"; }

void user_event(unsigned tag, gasp_evttype_t type, const char* file, int line, va_list* args) {
  const std::uint32_t id = g_user_event_ids[tag - GASP_UPC_USEREVT_START].load(std::memory_order_acquire);
  if (id == 0) {
    static std::atomic<int> reported{0};
    if (should_report(reported))
      std::fprintf(stderr,
                   "parperf: GASP user event %u (%s:%d) was never created with gasp_create_event; ignored\n",
                   tag, shown(file), line);
    return;
  }
  const int phase = type == GASP_START ? 0 : type == GASP_END ? 1 : 2;
  parperf_collector_user_event(id, phase, args);
}

void start(ToolContext& c, unsigned tag, const EventMapping& m, const char* file, int line, va_list* args) {
  if (c.open_count == ToolContext::kMaxOpen) {
    ++c.open_overflow;  // its end is matched with this count, and nothing is recorded
    return;
  }
  const char* name = m.name;
  if (m.action == Action::function) {
    name = va_arg(*args, const char*);
    if (!name) name = "?";
  }
  parperf_site* site = site_for(c, tag, name, static_cast<std::uint32_t>(m.kind), file, line);
  if (!site) return;
  if (m.action == Action::operation)
    c.open[c.open_count++] = OpenEvent{tag, site, parperf_collector_now()};
  else {
    c.open[c.open_count++] = OpenEvent{tag, site, 0};
    parperf_interval_begin(site, 0);
  }
}

void warn_unmatched_end(const EventMapping& m, unsigned tag, const char* file, int line) {
  static std::atomic<int> reported{0};
  if (should_report(reported))
    std::fprintf(stderr,
                 "parperf: GASP event %s (tag %u) ended at %s:%d without a start on this thread; this end is "
                 "ignored\n",
                 m.name[0] ? m.name : "function", tag, shown(file), line);
}

void end(ToolContext& c, unsigned tag, const EventMapping& m, const char* file, int line, va_list* args) {
  const std::uint64_t now = parperf_collector_now();
  int found = c.open_count - 1;
  while (found >= 0 && c.open[found].tag != tag) --found;
  if (found < 0) {
    if (c.open_overflow > 0)
      --c.open_overflow;
    else
      warn_unmatched_end(m, tag, file, line);
    return;
  }
  const OpenEvent open = c.open[found];
  for (int i = found; i + 1 < c.open_count; ++i) c.open[i] = c.open[i + 1];
  --c.open_count;
  if (m.action != Action::operation) {
    parperf_interval_end(open.site);
    return;
  }
  const std::uint64_t duration = now > open.start ? now - open.start : 0;
  parperf_operation operation{};
  operation.start = open.start;
  operation.end = now;
  operation.wait = m.waits ? duration : 0;
  operation.bytes = bytes_of(m.bytes, args);
  operation.partner = -1;  // a pointer-to-shared's thread is the compiler's secret: GASP does not pass it
  parperf_collector_record_at(open.site, &operation, nullptr);
}

// upc_global_exit: recorded as it happens, then the profile is written, as the other threads (or
// processes) of the job may be ended without an exit of their own.
void global_exit(ToolContext& c, unsigned tag, const EventMapping& m, const char* file, int line) {
  parperf_site* site = site_for(c, tag, m.name, static_cast<std::uint32_t>(m.kind), file, line);
  parperf_operation operation{};
  operation.start = operation.end = parperf_collector_now();
  operation.partner = -1;
  if (site) parperf_collector_record_at(site, &operation, nullptr);
  parperf_flush();
}

void notify(gasp_context_t context, unsigned tag, gasp_evttype_t type, const char* file, int line,
            va_list* args) {
  auto* c = reinterpret_cast<ToolContext*>(context);
  if (!c || !c->measured) return;
  if (tag >= GASP_UPC_USEREVT_START && tag <= GASP_UPC_USEREVT_END)
    return user_event(tag, type, file, line, args);
  const EventMapping& m = upc_event(tag);
  switch (m.action) {
    case Action::ignore:
      return;
    case Action::global_exit:
      if (type == GASP_ATOMIC) global_exit(*c, tag, m, file, line);
      return;
    default:
      if (type == GASP_START)
        start(*c, tag, m, file, line, args);
      else if (type == GASP_END)
        end(*c, tag, m, file, line, args);
      return;
  }
}

}  // namespace
}  // namespace parperf::gasp

using namespace parperf::gasp;

extern "C" {

gasp_context_t gasp_init(gasp_model_t srcmodel, int* /*argc*/, char*** /*argv*/) {
  const bool upc = srcmodel == GASP_MODEL_UPC;
  if (!upc) {
    static std::atomic<int> reported{0};
    if (should_report(reported))
      std::fprintf(stderr, "parperf: the GASP tool knows the events of UPC only; model %d is not measured\n",
                   static_cast<int>(srcmodel));
  }
  return reinterpret_cast<gasp_context_t>(create_context(upc && parperf_collector_active()));
}

void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                       const char* filename, int linenum, int colnum, ...) {
  va_list args;
  va_start(args, colnum);
  notify(context, evttag, evttype, filename, linenum, &args);
  va_end(args);
}

void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                         const char* filename, int linenum, int /*colnum*/, va_list varargs) {
  va_list args;
  va_copy(args, varargs);
  notify(context, evttag, evttype, filename, linenum, &args);
  va_end(args);
}

int gasp_control(gasp_context_t /*context*/, int on) {
  const int was_on = parperf_is_recording();
  parperf_control(on);
  return was_on;
}

unsigned int gasp_create_event(gasp_context_t /*context*/, const char* name, const char* desc) {
  const unsigned index = g_user_event_count.fetch_add(1, std::memory_order_relaxed);
  if (index >= kUserTags) {
    static std::atomic<int> reported{0};
    if (should_report(reported))
      std::fprintf(stderr, "parperf: gasp_create_event: all %u user event tags are taken; '%s' gets none\n",
                   kUserTags, name ? name : "?");
    return 0;
  }
  const std::uint32_t id = parperf_event_create(name, desc);
  if (id == 0) return 0;
  g_user_event_ids[index].store(id, std::memory_order_release);
  return GASP_UPC_USEREVT_START + index;
}

}  // extern "C"
