// Explicit tasks. Creating one is an operation at the task construct; executing one is an
// interval (kind task, at the same construct) on whichever thread runs it, nested in what that
// thread had open: a parallel region, a single construct, or a barrier or taskwait it was waiting
// in. Time spent running tasks inside a wait is work, so it is taken off that wait. A team member
// that runs tasks in the region's join barrier has already left the region (team_callbacks.cpp): it
// enters the region again for each such task, so the task counts as work in the region rather than
// as waiting at its end. A task that is suspended and resumed later counts one entry per piece it
// ran in.
//
// For the trace's task edges (docs/format.md, "Events"), each explicit task gets an id when it is
// created: the creating thread's number in the high bits, its own count of tasks in the low 32, so
// that no thread writes a shared counter. The creation operation carries it as `match`; the task's
// ompt_data_t word carries it to whichever thread runs the task, beside the slot of the task's
// site (code_sites.hpp: 14 bits where a pointer would take the whole word), and that thread traces
// it after entering each piece.
#include <atomic>

#include "runtime/openmp/callbacks.hpp"

namespace parperf::runtime::openmp {
namespace {

// The task's word: its site's slot in the top bits, its id (thread number, count) below.
constexpr unsigned kTaskIdBits = 64 - kCodeSiteSlotBits;
constexpr std::uint64_t kTaskIdMask = (std::uint64_t{1} << kTaskIdBits) - 1;
constexpr unsigned kTaskCountBits = 32;
constexpr std::uint64_t kThreadNumbers = std::uint64_t{1} << (kTaskIdBits - kTaskCountBits);

// Cold: a thread's first task creation numbers the thread (from 1, so that no id is 0).
std::uint64_t next_task_id(OpenMPThread& omp) noexcept {
  if (__builtin_expect(omp.task_id_base == 0, 0)) {
    static std::atomic<std::uint64_t> threads{0};
    const std::uint64_t number = threads.fetch_add(1, std::memory_order_relaxed) % (kThreadNumbers - 1) + 1;
    omp.task_id_base = number << kTaskCountBits;
  }
  return omp.task_id_base | ++omp.tasks_created;
}

}  // namespace

void on_task_create(ompt_data_t*, const ompt_frame_t*, ompt_data_t* new_task, int flags, int,
                    const void* codeptr_ra) {
  if (new_task) new_task->value = 0;
  if (!(flags & ompt_task_explicit)) return;
  const Measured m = measured_thread();
  if (!m) return;
  settle_construct(m);
  const std::uint64_t id = next_task_id(*m.omp);
  if (CodeSite* creation = site_at(codeptr_ra, format::SiteKind::omp_task_create))
    record_operation(*m.thread, &creation->site, 0, 0, 0, 0, static_cast<std::int64_t>(id));
  if (!new_task) return;
  if (const CodeSite* site = site_at(codeptr_ra, format::SiteKind::omp_task))
    new_task->value = std::uint64_t{site->slot} << kTaskIdBits | id;
}

void on_task_schedule(ompt_data_t* prior_task, ompt_task_status_t, ompt_data_t* next_task) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  settle_construct(m);
  OpenMPThread& omp = *m.omp;
  if (prior_task && prior_task->value && omp.task_count > 0) {
    const OpenTask task = omp.tasks[--omp.task_count];
    if (task.site) {
      leave_interval(*m.thread, &task.site->site, now);
      if (task.reentered_region) {
        leave_interval(*m.thread, &task.reentered_region->site, now);
        thread_parked(*m.thread, now);
      }
      if (task.sync_depth > 0 && task.sync_depth <= omp.sync_count)
        omp.syncs[task.sync_depth - 1].nested_work += ticks_between(task.begin, now);
    }
  }
  CodeSite* const site = next_task && next_task->value
                             ? code_site_in_slot(static_cast<std::uint32_t>(next_task->value >> kTaskIdBits))
                             : nullptr;
  if (site && omp.task_count < OpenMPThread::kMaxTasks) {
    CodeSite* reentered = nullptr;
    if (omp.joined_count > 0 && omp.joined_count <= OpenMPThread::kMaxLevels) {
      JoinedRegion& region = omp.joined[omp.joined_count - 1];
      if (region.left && region.site) {
        thread_unparked(*m.thread, now);
        enter_team_region(*m.thread, region.encountering_node, &region.site->site, now);
        reentered = region.site;
      }
    }
    omp.tasks[omp.task_count++] = OpenTask{site, now, omp.sync_count, reentered};
    enter_interval(*m.thread, &site->site, 0, now);
    trace_entry_item(*m.thread, next_task->value & kTaskIdMask, now);
  }
}

}  // namespace parperf::runtime::openmp
