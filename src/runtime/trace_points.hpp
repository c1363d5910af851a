// Where the measurement core writes into the event trace: one inline call at each place that
// records something into the profile (an interval's entry and exit, an iteration mark, an
// operation, a user event, a recording switch). Each costs a load and a test when the thread is
// not traced; when it is, an append (thread_trace.hpp). An interval's exit is traced exactly when
// its entry was (same site and depth), so the trace's intervals always nest.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/runtime_state.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/thread_trace.hpp"

namespace parperf::runtime {

// The appends themselves are out of line: a run without a trace pays a load and a branch at each
// interval boundary, not the larger code of the append inside the hot path.
__attribute__((noinline)) inline void trace_enter_on(ThreadTrace& trace, std::uint32_t depth,
                                                     const parperf_site* site, std::int64_t value,
                                                     std::uint64_t now) noexcept {
  if (!site_traced(site, depth, config().trace_max_depth)) return;
  const std::uint32_t id = site->id_;
  trace_event(trace, now, [&](format::TraceBlockEncoder& e) { return e.enter(now, id, value); });
}

__attribute__((noinline)) inline void trace_leave_on(ThreadTrace& trace, std::uint32_t depth,
                                                     const parperf_site* site, std::uint64_t now) noexcept {
  if (!site_traced(site, depth, config().trace_max_depth)) return;
  const std::uint32_t id = site->id_;
  trace_event(trace, now, [&](format::TraceBlockEncoder& e) { return e.leave(now, id); });
}

inline void trace_enter(ThreadState& t, std::uint32_t depth, const parperf_site* site, std::int64_t value,
                        std::uint64_t now) noexcept {
  if (ThreadTrace* trace = t.trace) trace_enter_on(*trace, depth, site, value, now);
}

inline void trace_leave(ThreadState& t, std::uint32_t depth, const parperf_site* site,
                        std::uint64_t now) noexcept {
  if (ThreadTrace* trace = t.trace) trace_leave_on(*trace, depth, site, now);
}

inline void trace_iteration(ThreadState& t, std::uint32_t depth, const parperf_site* site,
                            std::uint64_t now) noexcept {
  ThreadTrace* trace = t.trace;
  if (!trace || !site_traced(site, depth, config().trace_max_depth)) return;
  const std::uint32_t id = site->id_;
  trace_event(*trace, now, [&](format::TraceBlockEncoder& e) { return e.iteration(now, id); });
}

// An operation at `site` inside the thread's innermost interval (traced when that interval's depth
// is within the limit, as the operation's statistics go to it).
inline void trace_operation(ThreadState& t, const parperf_site* site,
                            format::TraceBlockEncoder::Operation operation) noexcept {
  ThreadTrace* trace = t.trace;
  if (!trace || !site_traced(site, t.depth.load(std::memory_order_relaxed), config().trace_max_depth)) return;
  operation.site = site->id_;
  trace_event(*trace, operation.start, [&](format::TraceBlockEncoder& e) { return e.operation(operation); });
}

// The work item an entry runs, after its enter (traced exactly when that enter was).
inline void trace_item(ThreadState& t, std::uint32_t depth, const parperf_site* site, std::uint64_t id,
                       std::uint64_t now) noexcept {
  ThreadTrace* trace = t.trace;
  if (!trace || !site_traced(site, depth, config().trace_max_depth)) return;
  trace_event(*trace, now, [&](format::TraceBlockEncoder& e) { return e.task(now, id); });
}

inline void trace_user_event(ThreadState& t, format::TraceEventKind kind, std::uint32_t event,
                             std::string_view text, std::uint64_t now) noexcept {
  ThreadTrace* trace = t.trace;
  if (!trace) return;
  trace_event(*trace, now,
              [&](format::TraceBlockEncoder& e) { return e.user_event(kind, now, event, text); });
}

inline void trace_mark(ThreadState& t, format::TraceEventKind kind, std::uint64_t now) noexcept {
  ThreadTrace* trace = t.trace;
  if (!trace) return;
  trace_event(*trace, now, [&](format::TraceBlockEncoder& e) { return e.mark(kind, now); });
}

}  // namespace parperf::runtime
