// collector_api.h: the exported functions through which collectors that are shared libraries of
// their own hand their measurements to the core.
#include "runtime/collector_api.h"

#include <cstring>

#include "runtime/clock.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/code_sites.hpp"
#include "runtime/collector_registry.hpp"
#include "runtime/interval_stack.hpp"
#include "runtime/operation_stats.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/sampler.hpp"
#include "runtime/site_registry.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/trace_points.hpp"

using namespace parperf::runtime;

namespace {

// The operation's site (a code site: its address and kind), registered.
parperf_site* site_of(const parperf_operation& operation) noexcept {
  CodeSite* code =
      code_site(operation.address, static_cast<parperf::format::SiteKind>(operation.kind), operation.name);
  if (!code) return nullptr;
  parperf_site* site = &code->site;
  if ((__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteUnregistered)
    register_site(site);
  return site;
}

// Its duration, and its waits clamped to it.
struct Measured {
  std::uint64_t duration, wait, sync;
};
Measured measured(const parperf_operation& operation) noexcept {
  const std::uint64_t duration = ticks_between(operation.start, operation.end);
  return {duration, operation.wait < duration ? operation.wait : duration,
          operation.sync < duration ? operation.sync : duration};
}

void trace(ThreadState& t, const parperf_site* site, const parperf_operation& operation,
           const Measured& m) noexcept {
  trace_operation(t, site,
                  {.start = operation.start,
                   .duration = m.duration,
                   .wait = m.wait,
                   .sync = m.sync,
                   .bytes = operation.bytes,
                   .partner = operation.partner,
                   .communicator = operation.communicator,
                   .match = operation.match});
}

// Records a measured operation at `site` in the thread's innermost interval.
int record(ThreadState& t, parperf_site* site, const parperf_operation& operation,
           parperf_position* position) noexcept {
  Node* node = innermost_node(t);
  OperationStats* stats = operation_stats_for(t, *node, site);
  if (!stats) return 0;
  const Measured m = measured(operation);
  stats->record(m.duration, m.wait, m.sync, operation.bytes);
  stats->record_partner(operation.partner);
  if (operation.overlap) stats->overlap_ticks.add(operation.overlap);
  stats->last_begin_ticks.set(operation.start);
  stats->last_end_ticks.set(operation.end);
  if (t.trace) trace(t, site, operation, m);
  if (position) *position = parperf_position{&t, node, site};
  return 1;
}

}  // namespace

extern "C" {

int parperf_collector_active(void) {
  return ensure_initialised() && lifecycle() == Lifecycle::active ? 1 : 0;
}

uint64_t parperf_collector_now(void) { return now_ticks(); }

double parperf_collector_ticks_per_ns(void) { return estimated_ticks_per_ns(); }

void parperf_collector_code_loaded(void) {
  if (sampling_active()) refresh_code_modules();
}

void parperf_collector_process_phase(uint32_t phase) { set_process_phase(phase); }

int parperf_collector_record(const parperf_operation* operation, parperf_position* position) {
  ThreadState* t = current_thread();
  if (!operation || !t || !recording() || t->unrecorded) return 0;
  parperf_site* site = site_of(*operation);
  if (!site) return 0;
  return record(*t, site, *operation, position);
}

parperf_site* parperf_collector_source_site(const char* name, uint32_t kind, const char* file, int line) {
  if (!name || !ensure_initialised()) return nullptr;
  parperf_site* site =
      intern_site(name, std::strlen(name), static_cast<int>(kind), file, file ? std::strlen(file) : 0, line);
  if (site && (__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteUnregistered)
    register_site(site);
  return site;
}

parperf_site* parperf_collector_code_site(const void* address, uint32_t kind, const char* name) {
  if (!address || !ensure_initialised()) return nullptr;
  CodeSite* code = code_site(address, static_cast<parperf::format::SiteKind>(kind), name);
  if (!code) return nullptr;
  parperf_site* site = &code->site;
  if ((__atomic_load_n(&site->state_, __ATOMIC_ACQUIRE) & kSiteStateMask) == kSiteUnregistered)
    register_site(site);
  return site;
}

int parperf_collector_record_at(parperf_site* site, const parperf_operation* operation,
                                parperf_position* position) {
  ThreadState* t = current_thread();
  if (!site || !operation || !t || !recording() || t->unrecorded) return 0;
  return record(*t, site, *operation, position);
}

int parperf_collector_trace(const parperf_operation* operation) {
  ThreadState* t = current_thread();
  if (!operation || !t || !t->trace || !recording() || t->unrecorded) return 0;
  parperf_site* site = site_of(*operation);
  if (!site) return 0;
  trace(*t, site, *operation, measured(*operation));
  return 1;
}

void parperf_collector_set_process(int64_t rank, int64_t world_size) {
  // The profile is named and described by this rank from now on.
  state_detail::config.rank = rank;
  state_detail::config.world_size = world_size;
}

int parperf_collector_foreign_threads(const char* const* prefixes) {
  return register_foreign_thread_libraries(prefixes) ? 1 : 0;
}

void parperf_collector_end_run(uint32_t end_reason, int code) {
  finish_run(static_cast<int>(end_reason), code);
}

int parperf_collector_register_section(uint32_t section_type, parperf_section_callback write, void* context) {
  return register_collector_section(section_type, write, context) ? 1 : 0;
}

void parperf_section_write(parperf_section_writer* writer, const void* bytes, size_t size) {
  writer->records->records_as_bytes(static_cast<const std::uint8_t*>(bytes), size);
}

uint64_t parperf_section_time_ns(const parperf_section_writer* writer, uint64_t ticks) {
  return writer->clock->since_origin_ns(ticks);
}

uint64_t parperf_section_duration_ns(const parperf_section_writer* writer, uint64_t ticks) {
  return writer->clock->duration_ns(ticks);
}

parperf_written_position parperf_section_position(const parperf_section_writer*,
                                                  const parperf_position* position) {
  const auto* thread = static_cast<const ThreadState*>(position->thread);
  const auto* node = static_cast<const Node*>(position->node);
  const auto* site = static_cast<const parperf_site*>(position->site);
  return parperf_written_position{thread ? thread->index : 0u, node ? node->written_index : 0xffffffffu,
                                  site ? static_cast<std::uint32_t>(site->id_) : 0u};
}

}  // extern "C"
