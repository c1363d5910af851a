// The interval hot path: parperf_interval_begin / parperf_interval_end and loop iteration marks.
//
// Cost model (bench/interval_bench.cpp measures it): entering an interval is one initial-exec TLS
// load, a read of the site's cached state, a lookup of the site pointer in the current node's
// inline child slots, one TSC read and a frame push; leaving is a site-pointer compare, one TSC read
// and five relaxed stores into the node. An iteration mark (parperf_loop_iteration, or the
// collector's mark_iteration for a chunk) is one TLS load, one TSC read and the node's iteration
// statistics: count, sum, minimum and maximum as for an entry, then their distribution
// (iteration_histogram.hpp): the sum of squares (a floating-point multiply-add), one bucket index
// (a multiply to nanoseconds and a count-leading-zeros) and one relaxed add; the distribution block
// is allocated on the node's first iteration only, so nodes without iterations pay nothing but a
// null pointer. bench/interval_bench.cpp (BM_IterationMark) measured ~10 ns a mark with and
// without the distribution (the added arithmetic overlaps the TSC read; 2-core VM, median of 5).
// No string is hashed or compared, nothing is allocated or locked once a (site, value) has been
// seen on the thread (and once a loop has had its first iteration), and the only system call is
// the rate-limited OS CPU-time read (os_cpu_time.hpp). Everything else is on cold paths below.
//
// Begin/end pairs stay matched when an entry is not recorded. An entry begun while recording is
// off, past the depth limit, or inside such an entry only increments ThreadState::unrecorded (the
// off path costs a TLS load, a flag test and an increment); its end decrements it. Those entries
// are always innermost, so the counter and the frame stack never interleave, and the stack stays
// consistent across parperf_control() switches. A name-filtered entry pushes a transparent frame
// so its children still attach to its parent. An entry that spans a pause leaves the paused time
// out (recording_switch.hpp): one more load of the pause clock on each begin and end.
//
// What is recorded is decided when an entry begins, never when it ends: an entry begun while
// recording was on is recorded whole, with the time recording was on, even when it ends during a
// pause. Deciding at the end instead would drop an entry whose children were kept, and a child's
// time would exceed its parent's (the report would refuse the profile).
#include <atomic>
#include <cstring>

#include "parperf/parperf.h"
#include "runtime/clock.hpp"
#include "runtime/diagnostics.hpp"
#include "runtime/interval_stack.hpp"
#include "runtime/operation_stats.hpp"
#include "runtime/os_cpu_time.hpp"
#include "runtime/pending_samples.hpp"
#include "runtime/recording_switch.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/site_registry.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/trace_points.hpp"

namespace parperf::runtime {
namespace {

#define PARPERF_UNLIKELY(x) __builtin_expect(!!(x), 0)

void push_frame(ThreadState& t, std::uint32_t depth, const parperf_site* site, Node* node, FrameMode mode,
                std::uint64_t now) noexcept {
  take_pending_samples(t);
  if (mode == FrameMode::record) trace_enter(t, depth, site, node->value, now);
  Frame& f = t.frames[depth];
  f.site.set(site);
  f.node.set(node);
  f.begin_ticks.set(now);
  f.paused_at_begin.set(paused_ticks(now));
  f.iteration_begin_ticks.set(0);
  f.mode.set(mode);
  t.depth.store(depth, std::memory_order_release);
}

// Pops the innermost frame at `now`, recording it when it is a recorded interval.
void pop_frame(ThreadState& t, std::uint32_t depth, std::uint64_t now) noexcept {
  take_pending_samples(t);
  Frame& f = t.frames[depth];
  if (f.mode.get() == FrameMode::record) {
    Node* node = f.node.get();
    const std::uint64_t begin = f.begin_ticks.get();
    node->record_entry(begin, recorded_ticks(begin, f.paused_at_begin.get(), now));
    const std::uint64_t iteration_begin = f.iteration_begin_ticks.get();
    if (iteration_begin && recording()) node->record_iteration(ticks_between(iteration_begin, now));
    maybe_sample_os_cpu_time(t, now, node);
    trace_leave(t, depth, f.site.get(), now);
  }
  t.depth.store(depth - 1, std::memory_order_release);
}

const char* site_name(const parperf_site* site) { return site && site->name ? site->name : "?"; }
const char* site_file(const parperf_site* site) { return site && site->file ? site->file : "?"; }

// The tree is bounded so that values that never repeat (a loop index passed as the interval's
// value, say) cannot grow memory and the profile without end.
bool within_node_budget(ThreadState& t, const parperf_site* site) noexcept {
  if (t.node_count < config().max_nodes) return true;
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    warn(
        "a thread reached %u distinct intervals (PARPERF_MAX_NODES); new ones are not recorded. The last was "
        "'%s' (%s:%d): does its value take ever new values?",
        config().max_nodes, site_name(site), site_file(site), site->line);
  return false;
}

// Cold path of begin: unregistered or filtered site, depth limit, new child node.
__attribute__((noinline)) void begin_slow(ThreadState& t, std::uint32_t depth, parperf_site* site,
                                          std::int64_t value, Node* parent_node, std::uint64_t now) noexcept {
  std::int32_t state = __atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask;
  if (state == kSiteUnregistered) state = register_site(site);
  if (state == kSiteCopied) {  // not static: frames and nodes keep the runtime's copy, never the site
    site = copied_site(site);
    if (!site) {
      t.dropped.add(1);
      ++t.unrecorded;
      return;
    }
    state = __atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask;
  }
  if (state == kSiteFiltered) {
    push_frame(t, depth, site, parent_node, FrameMode::transparent, 0);
    return;
  }
  Node* node = depth > config().max_depth ? nullptr : parent_node->find_child(site, value);
  if (!node && depth <= config().max_depth && within_node_budget(t, site)) {
    node = add_child(t.arena, parent_node, site, value);
    t.node_count += node ? 1 : 0;
  }
  if (!node) {  // cut by the depth or node limit, or out of memory: this entry and those inside it
    t.dropped.add(1);
    ++t.unrecorded;
    return;
  }
  maybe_sample_os_cpu_time(t, now, parent_node);
  push_frame(t, depth, site, node, FrameMode::record, now);
}

void warn_unbalanced(parperf_site* site, const char* what) {
  if (set_site_flag_once(site, kSiteWarnedUnbalanced))
    warn("interval '%s' (%s:%d): %s (reported once per interval)", site_name(site), site_file(site),
         site->line, what);
}

// True when `s`, an open frame's site, is what an end call names: the static site by address, or
// a run-time name (site null) by its text.
inline bool names_site(const parperf_site* s, const parperf_site* site, const char* name,
                       std::size_t name_length) {
  if (site) return s == site;
  const char* open_name = site_name(s);
  return std::strncmp(open_name, name, name_length) == 0 && open_name[name_length] == '\0';
}

// Finds the open frame of `site` (or with `name` when site is null) below the top; 0 if none.
std::uint32_t find_open_frame(const ThreadState& t, std::uint32_t depth, const parperf_site* site,
                              const char* name, std::size_t name_length) {
  for (std::uint32_t d = depth; d > 0; --d) {
    if (names_site(t.frames[d].site.get(), site, name, name_length)) return d;
  }
  return 0;
}

// An end that does not match the innermost frame: close the frames above the matching one (the
// user forgot their ends), or ignore an end that matches nothing. Either way the tree stays whole.
__attribute__((noinline)) void end_mismatched(ThreadState& t, std::uint32_t depth, const parperf_site* site,
                                              const char* name, std::size_t name_length,
                                              std::uint64_t now) noexcept {
  if (site && (__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteCopied) {
    if (const parperf_site* copy = copied_site(site)) site = copy;  // its begin pushed the copy
  }
  const std::uint32_t match = find_open_frame(t, depth, site, name, name_length);
  if (match == 0) {
    if (site) {
      warn_unbalanced(const_cast<parperf_site*>(site), "end without a matching begin; ignored");
    } else {
      static std::atomic<int> reported{0};
      if (reported.fetch_add(1, std::memory_order_relaxed) < 8)
        warn("end of interval '%.*s' without a matching begin; ignored", static_cast<int>(name_length), name);
    }
    return;
  }
  for (std::uint32_t d = depth; d > match; --d) {
    auto* inner = const_cast<parperf_site*>(t.frames[d].site.get());
    warn_unbalanced(inner, "still open when an enclosing interval ended; closed there");
    pop_frame(t, d, now);
  }
  pop_frame(t, match, now);
}

// Entering a recorded interval (the caller has handled the unrecorded case).
__attribute__((noinline)) void begin_recorded(ThreadState& t, parperf_site* site, std::int64_t value,
                                              std::uint64_t now) noexcept {
  const std::uint32_t depth = t.depth.load(std::memory_order_relaxed) + 1;
  if (PARPERF_UNLIKELY(depth >= kMaxFrames)) {
    t.dropped.add(1);
    ++t.unrecorded;
    return;
  }
  Node* parent_node = t.frames[depth - 1].node.get();
  Node* node = parent_node->find_child(site, value);
  if (PARPERF_UNLIKELY(!node || (site->state_ & kSiteStateMask) != kSiteRecorded ||
                       depth > config().max_depth)) {
    begin_slow(t, depth, site, value, parent_node, now);
    return;
  }
  maybe_sample_os_cpu_time(t, now, parent_node);
  push_frame(t, depth, site, node, FrameMode::record, now);
}

// Leaving the innermost interval (the caller has handled the unrecorded case).
__attribute__((noinline)) void end_recorded(ThreadState& t, const parperf_site* site, const char* name,
                                            std::size_t name_length, std::uint64_t now) noexcept {
  const std::uint32_t depth = t.depth.load(std::memory_order_relaxed);
  if (PARPERF_UNLIKELY(depth == 0 || !names_site(t.frames[depth].site.get(), site, name, name_length))) {
    end_mismatched(t, depth, site, name, name_length, now);
    return;
  }
  pop_frame(t, depth, now);
}

// The entry points' shape: the unrecorded path (recording off, or inside an unrecorded entry)
// stays small enough to need no stack frame; everything else is a tail call.
inline void begin_on(ThreadState& t, parperf_site* site, std::int64_t value) noexcept {
  if (PARPERF_UNLIKELY(!recording() || t.unrecorded)) {
    ++t.unrecorded;
    return;
  }
  begin_recorded(t, site, value, now_ticks());
}

inline void end_on(ThreadState& t, const parperf_site* site, const char* name,
                   std::size_t name_length) noexcept {
  if (PARPERF_UNLIKELY(t.unrecorded)) {
    --t.unrecorded;
    return;
  }
  end_recorded(t, site, name, name_length, now_ticks());
}

// A thread's first call: register it (cold, allocates), then proceed as usual.
__attribute__((noinline)) void begin_first(parperf_site* site, std::int64_t value) noexcept {
  if (ThreadState* t = register_current_thread()) begin_on(*t, site, value);
}
__attribute__((noinline)) void end_first(const parperf_site* site, const char* name,
                                         std::size_t name_length) noexcept {
  if (ThreadState* t = register_current_thread()) end_on(*t, site, name, name_length);
}

inline void begin(parperf_site* site, std::int64_t value) noexcept {
  ThreadState* t = thread_detail::current;
  if (PARPERF_UNLIKELY(!t)) return begin_first(site, value);
  begin_on(*t, site, value);
}

inline void end(const parperf_site* site, const char* name, std::size_t name_length) noexcept {
  ThreadState* t = thread_detail::current;
  if (PARPERF_UNLIKELY(!t)) return end_first(site, name, name_length);
  end_on(*t, site, name, name_length);
}

}  // namespace

// Collector entry points (interval_stack.hpp): the same stack, at the collector's time stamps.

void enter_interval(ThreadState& t, parperf_site* site, std::int64_t value, std::uint64_t now) noexcept {
  if (!recording() || t.unrecorded) {
    ++t.unrecorded;
    return;
  }
  begin_recorded(t, site, value, now);
}

void leave_interval(ThreadState& t, const parperf_site* site, std::uint64_t now) noexcept {
  if (t.unrecorded) {
    --t.unrecorded;
    return;
  }
  end_recorded(t, site, nullptr, 0, now);
}

void enter_team_region(ThreadState& t, const Node* encountering, parperf_site* site,
                       std::uint64_t now) noexcept {
  const std::uint32_t depth = t.depth.load(std::memory_order_relaxed) + 1;
  if (!recording() || t.unrecorded || depth >= kMaxFrames) {
    ++t.unrecorded;
    return;
  }
  std::int32_t state = __atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask;
  if (state == kSiteUnregistered) state = register_site(site);
  Node* parent = team_path_node(t, encountering);
  Node* node = nullptr;
  if (parent && state == kSiteRecorded) {
    node = parent->find_child(site, 0);
    if (!node && within_node_budget(t, site)) {
      node = add_child(t.arena, parent, site, 0);
      t.node_count += node ? 1 : 0;
    }
  }
  if (!node) {
    t.dropped.add(1);
    ++t.unrecorded;
    return;
  }
  maybe_sample_os_cpu_time(t, now, t.frames[depth - 1].node.get());
  push_frame(t, depth, site, node, FrameMode::record, now);
}

void mark_iteration(ThreadState& t, std::uint64_t now) noexcept {
  if (t.unrecorded) return;
  const std::uint32_t depth = t.depth.load(std::memory_order_relaxed);
  Frame& f = t.frames[depth];
  if (depth == 0 || f.mode.get() != FrameMode::record) return;
  const std::uint64_t previous = f.iteration_begin_ticks.get();
  if (previous && recording()) f.node.get()->record_iteration(ticks_between(previous, now));
  f.iteration_begin_ticks.set(now);
  trace_iteration(t, depth, f.site.get(), now);
}

void end_iteration(ThreadState& t, std::uint64_t now) noexcept {
  if (t.unrecorded) return;
  Frame& f = t.frames[t.depth.load(std::memory_order_relaxed)];
  const std::uint64_t previous = f.iteration_begin_ticks.get();
  if (!previous || f.mode.get() != FrameMode::record) return;
  if (recording()) f.node.get()->record_iteration(ticks_between(previous, now));
  f.iteration_begin_ticks.set(0);
}

void trace_entry_item(ThreadState& t, std::uint64_t id, std::uint64_t now) noexcept {
  if (!t.trace || t.unrecorded) return;
  const std::uint32_t depth = t.depth.load(std::memory_order_relaxed);
  const Frame& f = t.frames[depth];
  if (f.mode.get() == FrameMode::record) trace_item(t, depth, f.site.get(), id, now);
}

Node* innermost_node(ThreadState& t) noexcept {
  return t.frames[t.depth.load(std::memory_order_relaxed)].node.get();
}

void record_operation(ThreadState& t, parperf_site* site, std::uint64_t start, std::uint64_t duration,
                      std::uint64_t wait, std::uint64_t sync, std::int64_t match) noexcept {
  if (!recording() || t.unrecorded) return;
  if ((__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteUnregistered)
    register_site(site);
  Node* node = t.frames[t.depth.load(std::memory_order_relaxed)].node.get();
  if (OperationStats* stats = operation_stats_for(t, *node, site)) stats->record(duration, wait, sync, 0);
  if (t.trace)
    trace_operation(t, site,
                    {.start = start ? start : now_ticks(),
                     .duration = duration,
                     .wait = wait,
                     .sync = sync,
                     .match = match});
}

namespace {

// A length-delimited name ends at a NUL byte, as in C: a Fortran caller often appends c_null_char
// and passes the length with it. Anything after the NUL is lost, which is said once.
std::size_t length_before_nul(const char* text, std::size_t length, const char* what) noexcept {
  const void* nul = std::memchr(text, '\0', length);
  if (!nul) return length;
  const auto kept = static_cast<std::size_t>(static_cast<const char*>(nul) - text);
  bool more = false;
  for (std::size_t i = kept; i < length && !more; ++i) more = text[i] != '\0';
  static std::atomic<bool> warned{false};
  if (more && !warned.exchange(true))
    warn(
        "%s '%.*s' given with %zu bytes holds a NUL byte at %zu: the name ends there (bytes after it are "
        "not part of any name)",
        what, static_cast<int>(kept), text, length, kept);
  return kept;
}

}  // namespace
}  // namespace parperf::runtime

using namespace parperf::runtime;

extern "C" {

void parperf_interval_begin(parperf_site* site, int64_t value) {
  if (site) begin(site, value);
}

void parperf_interval_end(parperf_site* site) {
  if (site) end(site, nullptr, 0);
}

void parperf_interval_begin_n(const char* name, size_t name_len, int kind, const char* file, size_t file_len,
                              int line, int64_t value) {
  if (!name || !current_thread()) return;
  name_len = length_before_nul(name, name_len, "interval name");
  if (file) file_len = length_before_nul(file, file_len, "file name");
  if (parperf_site* site = intern_site(name, name_len, kind, file, file_len, line)) begin(site, value);
}

void parperf_interval_end_n(const char* name, size_t name_len) {
  if (name) end(nullptr, name, length_before_nul(name, name_len, "interval name"));
}

void parperf_interval_begin_named(const char* name, int kind, const char* file, int line, int64_t value) {
  if (name)
    parperf_interval_begin_n(name, std::strlen(name), kind, file, file ? std::strlen(file) : 0, line, value);
}

void parperf_interval_end_named(const char* name) {
  if (name) end(nullptr, name, std::strlen(name));
}

void parperf_loop_iteration(void) {
  ThreadState* t = current_thread();
  if (!t || t->unrecorded) return;
  const std::uint32_t depth = t->depth.load(std::memory_order_relaxed);
  Frame& f = t->frames[depth];
  if (depth == 0 || f.mode.get() != FrameMode::record) return;
  const std::uint64_t now = now_ticks();
  const std::uint64_t previous = f.iteration_begin_ticks.get();
  if (previous && recording()) f.node.get()->record_iteration(ticks_between(previous, now));
  f.iteration_begin_ticks.set(now);
  trace_iteration(*t, depth, f.site.get(), now);
}

}  // extern "C"
