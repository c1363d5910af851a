// Synchronizations: barriers, taskwait, taskgroup, reductions, mutual exclusion and flush.
//
// Each becomes an operation at its site in the innermost interval, with its duration and the part
// spent waiting. For a barrier or taskwait the waiting is what OMPT's sync-region-wait brackets,
// less the tasks the thread executed meanwhile (that is work); for a lock, critical section,
// ordered turn or atomic it is acquire → acquired. Waiting is classified as DESIGN.md's `sync`
// (desynchronization: the implicit barrier of a work-sharing construct or of a parallel region,
// an explicit barrier that resolves a chain of nowait constructs, a runtime barrier) or `wait`
// (everything else).
#include "runtime/openmp/callbacks.hpp"

namespace parperf::runtime::openmp {
namespace {

using format::SiteKind;

bool is_implicit_barrier(ompt_sync_region_t kind) {
  return kind == ompt_sync_region_barrier_implicit || kind == ompt_sync_region_barrier_implicit_workshare ||
         kind == ompt_sync_region_barrier_implicit_parallel;
}

// Every kind but taskwait, taskgroup and reduction: those may sit inside a work-sharing construct.
bool is_barrier(ompt_sync_region_t kind) {
  return kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
         kind != ompt_sync_region_reduction;
}

JoinedRegion* innermost_region(OpenMPThread& omp) {
  if (omp.joined_count == 0 || omp.joined_count > OpenMPThread::kMaxLevels) return nullptr;
  return &omp.joined[omp.joined_count - 1];
}

// libomp reports the join barrier of a parallel region as an implicit barrier whose return address
// is the region's own (on the forking thread) or none (on the other members).
bool is_join_barrier(ompt_sync_region_t kind, const void* codeptr_ra, const JoinedRegion* region) {
  if (kind == ompt_sync_region_barrier_implicit_parallel) return true;
  if (!is_implicit_barrier(kind) || !region || !region->site) return false;
  return codeptr_ra == nullptr || codeptr_ra == region->site->key;
}

OpenSync* push_sync(OpenMPThread& omp) {
  if (omp.sync_count == OpenMPThread::kMaxSyncs) return nullptr;
  OpenSync& s = omp.syncs[omp.sync_count++];
  s = OpenSync{};
  return &s;
}

// A member of the team reached the region's join barrier: count it there and leave the region.
void member_reaches_join(Measured m, JoinedRegion& region, std::uint64_t now) {
  if (CodeSite* join = operation_site_of(region.site, SiteKind::omp_join_barrier))
    record_operation(*m.thread, &join->site, now, 0, 0, 0, region.team_instance);
  leave_interval(*m.thread, &region.site->site, now);
  region.left = true;
  thread_parked(*m.thread, now);
  push_sync(*m.omp);  // its end comes when the member is woken again: ignored (site null)
}

void begin_sync(Measured m, ompt_sync_region_t kind, const void* codeptr_ra, std::uint64_t now) {
  if (is_barrier(kind)) end_unreported_single(m, now);
  OpenMPThread& omp = *m.omp;
  JoinedRegion* region = innermost_region(omp);
  CodeSite* site = nullptr;
  CodeSite* closes = nullptr;
  WaitClass wait_class = WaitClass::wait;
  if (is_join_barrier(kind, codeptr_ra, region)) {
    settle_construct(m);  // a nowait construct right before the end of the region
    if (!region->forked_here) return member_reaches_join(m, *region, now);
    site = operation_site_of(region->site, SiteKind::omp_join_barrier);
    wait_class = WaitClass::sync;
  } else if (is_implicit_barrier(kind) && omp.ending_construct) {
    closes = omp.ending_construct;  // the construct stays open until its barrier ends
    omp.ending_construct = nullptr;
    site = operation_site_of(closes, SiteKind::omp_implicit_barrier);
    wait_class = WaitClass::sync;
  } else {
    settle_construct(m);
    switch (kind) {
      case ompt_sync_region_barrier_explicit:
      case ompt_sync_region_barrier:
        site = site_at(codeptr_ra, SiteKind::omp_barrier);
        wait_class = omp.nowait_since_barrier ? WaitClass::sync : WaitClass::wait;
        break;
      case ompt_sync_region_taskwait:
        site = site_at(codeptr_ra, SiteKind::omp_taskwait);
        break;
      case ompt_sync_region_taskgroup:
        site = site_at(codeptr_ra, SiteKind::omp_taskgroup);
        break;
      case ompt_sync_region_reduction:
        site = site_at(codeptr_ra, SiteKind::omp_reduction);
        break;
      case ompt_sync_region_barrier_implicit:
      case ompt_sync_region_barrier_implicit_workshare:
        site = site_at(codeptr_ra, SiteKind::omp_implicit_barrier);
        wait_class = WaitClass::sync;
        break;
      default:  // implementation barriers (gcc's inlined loops end with one) and teams barriers
        site = site_at(codeptr_ra, SiteKind::omp_implementation_barrier);
        wait_class = WaitClass::sync;
        break;
    }
  }
  if (wait_class == WaitClass::sync || kind == ompt_sync_region_barrier_explicit)
    omp.nowait_since_barrier = false;
  OpenSync* s = push_sync(omp);
  if (!s) return;
  s->site = site;
  s->closes_construct = closes;
  s->begin = now;
  s->wait_class = wait_class;
  if (is_barrier(kind) && region) s->match = region->team_instance;
}

void end_sync(Measured m, std::uint64_t now) {
  OpenMPThread& omp = *m.omp;
  if (omp.sync_count == 0) return;
  const OpenSync s = omp.syncs[--omp.sync_count];
  if (!s.site) return;
  const std::uint64_t duration = ticks_between(s.begin, now);
  std::uint64_t waited = s.wait_seen ? s.waited : duration;
  waited = waited > s.nested_work ? waited - s.nested_work : 0;
  record_operation(*m.thread, &s.site->site, s.begin, duration, s.wait_class == WaitClass::wait ? waited : 0,
                   s.wait_class == WaitClass::sync ? waited : 0, s.match);
  if (s.closes_construct) leave_interval(*m.thread, &s.closes_construct->site, now);
}

SiteKind mutex_kind(ompt_mutex_t kind) {
  switch (kind) {
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock:
      return SiteKind::omp_nest_lock;
    case ompt_mutex_critical:
      return SiteKind::omp_critical;
    case ompt_mutex_atomic:
      return SiteKind::omp_atomic;
    case ompt_mutex_ordered:
      return SiteKind::omp_ordered;
    default:
      return SiteKind::omp_lock;
  }
}

OpenMutex* find_mutex(OpenMPThread& omp, ompt_wait_id_t wait_id) {
  for (int i = omp.mutex_count - 1; i >= 0; --i)
    if (omp.mutexes[i].wait_id == wait_id) return &omp.mutexes[i];
  return nullptr;
}

OpenMutex* push_mutex(OpenMPThread& omp, ompt_wait_id_t wait_id, CodeSite* site, std::uint64_t now) {
  if (!site || omp.mutex_count == OpenMPThread::kMaxMutexes) return nullptr;
  OpenMutex& mutex = omp.mutexes[omp.mutex_count++];
  mutex = OpenMutex{wait_id, site, now, 0};
  return &mutex;
}

void instant_operation(const void* codeptr_ra, SiteKind kind) {
  const Measured m = measured_thread();
  if (!m) return;
  settle_construct(m);
  if (CodeSite* site = site_at(codeptr_ra, kind)) record_operation(*m.thread, &site->site, 0, 0, 0, 0);
}

}  // namespace

void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*,
                    const void* codeptr_ra) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  if (endpoint == ompt_scope_begin)
    begin_sync(m, kind, codeptr_ra, now);
  else
    end_sync(m, now);
}

void on_sync_region_wait(ompt_sync_region_t, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*,
                         const void*) {
  const Measured m = measured_thread();
  if (!m || m.omp->sync_count == 0) return;
  OpenSync& s = m.omp->syncs[m.omp->sync_count - 1];
  const std::uint64_t now = now_ticks();
  if (endpoint == ompt_scope_begin) {
    s.wait_begin = now;
  } else if (s.wait_begin) {
    s.waited += ticks_between(s.wait_begin, now);
    s.wait_begin = 0;
    s.wait_seen = true;
  }
}

void on_mutex_acquire(ompt_mutex_t kind, unsigned int, unsigned int, ompt_wait_id_t wait_id,
                      const void* codeptr_ra) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  settle_construct(m);
  push_mutex(*m.omp, wait_id, site_at(codeptr_ra, mutex_kind(kind)), now);
}

void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr_ra) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  OpenMutex* mutex = find_mutex(*m.omp, wait_id);
  if (mutex && mutex->acquired == 0) {
    mutex->acquired = now;
  } else if (OpenMutex* taken = push_mutex(*m.omp, wait_id, site_at(codeptr_ra, mutex_kind(kind)), now)) {
    taken->acquired = now;  // acquired without an acquire event (a successful test)
  }
}

void on_mutex_released(ompt_mutex_t, ompt_wait_id_t wait_id, const void*) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  OpenMPThread& omp = *m.omp;
  OpenMutex* mutex = find_mutex(omp, wait_id);
  if (!mutex) return;
  const std::uint64_t acquired = mutex->acquired ? mutex->acquired : mutex->begin;
  // The lock's wait id pairs the acquisitions of one lock across threads in the trace.
  record_operation(*m.thread, &mutex->site->site, mutex->begin, ticks_between(mutex->begin, now),
                   ticks_between(mutex->begin, acquired), 0, static_cast<std::int64_t>(mutex->wait_id));
  for (OpenMutex* next = mutex + 1; next < omp.mutexes + omp.mutex_count; ++next) next[-1] = *next;
  --omp.mutex_count;
}

void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t, const void* codeptr_ra) {
  if (endpoint == ompt_scope_begin) instant_operation(codeptr_ra, SiteKind::omp_nest_lock);
}

void on_lock_init(ompt_mutex_t, unsigned int, unsigned int, ompt_wait_id_t, const void* codeptr_ra) {
  instant_operation(codeptr_ra, SiteKind::omp_lock_init);
}

void on_lock_destroy(ompt_mutex_t, ompt_wait_id_t, const void* codeptr_ra) {
  instant_operation(codeptr_ra, SiteKind::omp_lock_destroy);
}

void on_flush(ompt_data_t*, const void* codeptr_ra) { instant_operation(codeptr_ra, SiteKind::omp_flush); }

}  // namespace parperf::runtime::openmp
