// Threads, teams and work-sharing constructs.
//
// A parallel region is an interval on every thread of its team. The forking thread enters it at
// parallel-begin and leaves at parallel-end. A member enters it at implicit-task-begin, below the
// forking thread's interval path (enter_team_region), and leaves when it reaches the region's join
// barrier: libomp reports the end of a member's join barrier and implicit task only when the
// member is woken for its next team, so the member's own end events come too late to time the
// region. From the join barrier on, the member is parked in the pool; the analysis counts the
// time until the region ends as that member's wait at the join barrier.
//
// A work-sharing construct is an interval too; its implicit barrier, if it has one, is inside it
// (see settle_construct), so the construct's time includes the waiting its imbalance causes.
#include <atomic>

#include "runtime/openmp/callbacks.hpp"

namespace parperf::runtime::openmp {
namespace {

format::SiteKind work_kind(ompt_work_t type) {
  using K = format::SiteKind;
  switch (type) {
    case ompt_work_sections:
      return K::omp_sections;
    case ompt_work_single_executor:
    case ompt_work_single_other:
      return K::omp_single;
    case ompt_work_workshare:
      return K::omp_workshare;
    case ompt_work_distribute:
      return K::omp_distribute;
    case ompt_work_taskloop:
      return K::omp_taskloop;
    case ompt_work_scope:
      return K::omp_scope;
    default:
      return K::omp_loop;  // ompt_work_loop and the 5.2 loop_static/dynamic/guided/other
  }
}

void push_construct(OpenMPThread& omp, CodeSite* site, bool single_executor = false) {
  if (omp.construct_count < OpenMPThread::kMaxConstructs)
    omp.constructs[omp.construct_count] = OpenConstruct{site, omp.joined_count, single_executor};
  ++omp.construct_count;
}

CodeSite* pop_construct(OpenMPThread& omp) {
  if (omp.construct_count == 0) return nullptr;
  --omp.construct_count;
  return omp.construct_count < OpenMPThread::kMaxConstructs ? omp.constructs[omp.construct_count].site
                                                            : nullptr;
}

// Numbers the process's region instances for the trace (TeamContext::instance): one relaxed
// increment per region forked, beside the microseconds a fork and join take.
constinit std::atomic<std::int64_t> g_region_instances{0};

}  // namespace

// gcc compiles `single` to GOMP_single_start, and libomp's version of it reports the construct's
// beginning to the thread that executes it but never its end: there is no GOMP_single_end to
// report it from (clang's __kmpc_end_single reports it). That thread's single is over once it does
// what a single's body cannot contain at the single's team level: reach a barrier (gcc calls
// GOMP_barrier right after the body of a single without nowait, and at the end of a region lets
// the join barrier stand for it), begin another work-sharing or masked construct, or end its
// implicit task. The single ends there, as a construct whose implicit barrier may follow.
void end_unreported_single(Measured m, std::uint64_t now) noexcept {
  OpenMPThread& omp = *m.omp;
  if (omp.construct_count == 0 || omp.construct_count > OpenMPThread::kMaxConstructs) return;
  const OpenConstruct& top = omp.constructs[omp.construct_count - 1];
  if (!top.single_executor || top.team_level != omp.joined_count) return;
  CodeSite* site = pop_construct(omp);
  settle_construct(m);
  omp.ending_construct = site;
  omp.construct_end = now;
}

void on_thread_begin(ompt_thread_t type, ompt_data_t*) {
  const Measured m = measured_thread();
  if (!m) return;
  if (type == ompt_thread_initial) set_thread_kind(*m.thread, format::ThreadKind::initial);
  if (type == ompt_thread_worker) {
    set_thread_kind(*m.thread, format::ThreadKind::openmp_worker);
    thread_parked(*m.thread, now_ticks());
  }
}

void on_thread_end(ompt_data_t*) {
  if (const Measured m = measured_thread()) thread_unparked(*m.thread, now_ticks());
}

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel_data, unsigned int, int,
                       const void* codeptr_ra) {
  parallel_data->ptr = nullptr;
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  settle_construct(m);
  OpenMPThread& omp = *m.omp;
  CodeSite* site = site_at(codeptr_ra, format::SiteKind::omp_parallel);
  if (!site || omp.forked_count == OpenMPThread::kMaxLevels) return;
  TeamContext& team = omp.forked[omp.forked_count++];
  team.site = site;
  team.encountering_thread = m.thread;
  team.encountering_node = innermost_node(*m.thread);
  team.instance = g_region_instances.fetch_add(1, std::memory_order_relaxed) + 1;
  enter_interval(*m.thread, &site->site, 0, now);
  parallel_data->ptr = &team;
}

void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t*, int, const void*) {
  auto* team = static_cast<TeamContext*>(parallel_data->ptr);
  const Measured m = measured_thread();
  if (!m || !team) return;
  const std::uint64_t now = now_ticks();
  settle_construct(m);
  leave_interval(*m.thread, &team->site->site, now);
  if (m.omp->forked_count > 0) --m.omp->forked_count;
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t*, unsigned int,
                      unsigned int, int flags) {
  if (flags & ompt_task_initial) return;  // a thread's initial task: the whole thread, already the root
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  if (endpoint == ompt_scope_end) end_unreported_single(m, now);
  settle_construct(m);
  OpenMPThread& omp = *m.omp;
  if (endpoint == ompt_scope_begin) {
    JoinedRegion region;
    const auto* team = parallel_data ? static_cast<const TeamContext*>(parallel_data->ptr) : nullptr;
    if (team) {
      region.site = team->site;
      region.encountering_node = team->encountering_node;
      region.forked_here = team->encountering_thread == m.thread;
      region.team_instance = team->instance;
      if (!region.forked_here) {
        thread_unparked(*m.thread, now);
        enter_team_region(*m.thread, team->encountering_node, &team->site->site, now);
      }
    }
    if (omp.joined_count < OpenMPThread::kMaxLevels) omp.joined[omp.joined_count] = region;
    ++omp.joined_count;
    return;
  }
  if (omp.joined_count == 0) return;
  --omp.joined_count;
  if (omp.joined_count >= OpenMPThread::kMaxLevels) return;
  JoinedRegion& region = omp.joined[omp.joined_count];
  if (region.site && !region.forked_here && !region.left) {
    leave_interval(*m.thread, &region.site->site, now);
    thread_parked(*m.thread, now);
  }
}

void on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, uint64_t,
             const void* codeptr_ra) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  if (endpoint == ompt_scope_begin) end_unreported_single(m, now);
  settle_construct(m);
  if (endpoint == ompt_scope_begin) {
    CodeSite* site = site_at(codeptr_ra, work_kind(work_type));
    if (!site) return;
    push_construct(*m.omp, site, work_type == ompt_work_single_executor);
    enter_interval(*m.thread, &site->site, 0, now);
    return;
  }
  CodeSite* site = pop_construct(*m.omp);
  if (!site) return;
  note_end_address(site, codeptr_ra, load_bias_of(site));
  end_iteration(*m.thread, now);
  m.omp->ending_construct = site;
  m.omp->construct_end = now;
}

void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, const void* codeptr_ra) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  if (endpoint == ompt_scope_begin) end_unreported_single(m, now);
  settle_construct(m);
  if (endpoint == ompt_scope_begin) {
    CodeSite* site = site_at(codeptr_ra, format::SiteKind::omp_masked);
    if (!site) return;
    push_construct(*m.omp, site);
    enter_interval(*m.thread, &site->site, 0, now);
    return;
  }
  if (CodeSite* site = pop_construct(*m.omp)) leave_interval(*m.thread, &site->site, now);
}

void on_dispatch(ompt_data_t*, ompt_data_t*, ompt_dispatch_t, ompt_data_t) {
  if (const Measured m = measured_thread()) mark_iteration(*m.thread, now_ticks());
}

}  // namespace parperf::runtime::openmp
