// Explicit tasks. Creating one is an operation at the task construct; executing one is an
// interval (kind task, at the same construct) on whichever thread runs it, nested in what that
// thread had open: a parallel region, a single construct, or a barrier or taskwait it was waiting
// in. Time spent running tasks inside a wait is work, so it is taken off that wait. A team member
// that runs tasks in the region's join barrier has already left the region (team_callbacks.cpp): it
// enters the region again for each such task, so the task counts as work in the region rather than
// as waiting at its end. A task that is suspended and resumed later counts one entry per piece it
// ran in.
#include "runtime/openmp/callbacks.hpp"

namespace parperf::runtime::openmp {

void on_task_create(ompt_data_t*, const ompt_frame_t*, ompt_data_t* new_task, int flags, int,
                    const void* codeptr_ra) {
  if (new_task) new_task->ptr = nullptr;
  if (!(flags & ompt_task_explicit)) return;
  const Measured m = measured_thread();
  if (!m) return;
  settle_construct(m);
  if (CodeSite* creation = site_at(codeptr_ra, format::SiteKind::omp_task_create))
    record_operation(*m.thread, &creation->site, 0, 0, 0, 0);
  if (new_task) new_task->ptr = site_at(codeptr_ra, format::SiteKind::omp_task);
}

void on_task_schedule(ompt_data_t* prior_task, ompt_task_status_t, ompt_data_t* next_task) {
  const Measured m = measured_thread();
  if (!m) return;
  const std::uint64_t now = now_ticks();
  settle_construct(m);
  OpenMPThread& omp = *m.omp;
  if (prior_task && prior_task->ptr && omp.task_count > 0) {
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
  if (next_task && next_task->ptr && omp.task_count < OpenMPThread::kMaxTasks) {
    auto* site = static_cast<CodeSite*>(next_task->ptr);
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
  }
}

}  // namespace parperf::runtime::openmp
