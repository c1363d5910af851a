// The OMPT callbacks of the OpenMP collector and the helpers they share. Each callback translates
// one OpenMP event into the core's vocabulary (the collector API's C++ face, collector.hpp): enter
// or leave an interval at a construct's site, or record an operation with its waiting time.
// docs/openmp.md describes the mapping and the OMPT behaviours of libomp it relies on.
#pragma once

#include <omp-tools.h>

#include "format/records.hpp"
#include "runtime/collector.hpp"
#include "runtime/openmp/openmp_thread.hpp"
#include "runtime/openmp/site_names.hpp"

namespace parperf::runtime::openmp {

// The site of a construct at `codeptr`. A return address inside the OpenMP runtime, or none at
// all, names no user code: such constructs share one site per kind, and since operations attach
// to the innermost interval, they are attributed to the enclosing construct.
inline CodeSite* site_at(const void* codeptr, format::SiteKind kind) noexcept {
  CodeSite* site = code_site(codeptr, kind, site_name(kind));
  if (site && site->in_foreign_runtime) site = code_site(nullptr, kind, site_name(kind));
  return site;
}

// The site of an operation that belongs to `construct` (its implicit or join barrier).
inline CodeSite* operation_site_of(const CodeSite* construct, format::SiteKind kind) noexcept {
  return construct_operation_site(construct, kind, site_name(kind));
}

// Ends a work-sharing construct whose implicit barrier did not follow (nowait) at its end time.
// Called by every callback except those that may be that barrier.
inline void settle_construct(Measured m) noexcept {
  if (__builtin_expect(m.omp->ending_construct == nullptr, 1)) return;
  leave_interval(*m.thread, &m.omp->ending_construct->site, m.omp->construct_end);
  m.omp->ending_construct = nullptr;
  m.omp->nowait_since_barrier = true;
}

// team_callbacks.cpp
void on_thread_begin(ompt_thread_t type, ompt_data_t* thread_data);
void on_thread_end(ompt_data_t* thread_data);
void on_parallel_begin(ompt_data_t* encountering_task, const ompt_frame_t* encountering_frame,
                       ompt_data_t* parallel_data, unsigned int requested_parallelism, int flags,
                       const void* codeptr_ra);
void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t* encountering_task, int flags,
                     const void* codeptr_ra);
void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t* task_data,
                      unsigned int actual_parallelism, unsigned int index, int flags);
void on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data,
             ompt_data_t* task_data, uint64_t count, const void* codeptr_ra);
void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t* task_data,
               const void* codeptr_ra);
void on_dispatch(ompt_data_t* parallel_data, ompt_data_t* task_data, ompt_dispatch_t kind,
                 ompt_data_t instance);
// Ends a single whose end libomp does not report (gcc's), when the thread's next event shows that
// its body is over: a barrier, another construct, the end of the implicit task.
void end_unreported_single(Measured m, std::uint64_t now) noexcept;

// sync_callbacks.cpp
void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data,
                    ompt_data_t* task_data, const void* codeptr_ra);
void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data,
                         ompt_data_t* task_data, const void* codeptr_ra);
void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                      const void* codeptr_ra);
void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr_ra);
void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr_ra);
void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void* codeptr_ra);
void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                  const void* codeptr_ra);
void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr_ra);
void on_flush(ompt_data_t* thread_data, const void* codeptr_ra);

// tool_control.cpp: omp_control_tool
int on_control_tool(uint64_t command, uint64_t modifier, void* arg, const void* codeptr_ra);

// task_callbacks.cpp
void on_task_create(ompt_data_t* encountering_task, const ompt_frame_t* encountering_frame,
                    ompt_data_t* new_task, int flags, int has_dependences, const void* codeptr_ra);
void on_task_schedule(ompt_data_t* prior_task, ompt_task_status_t prior_status, ompt_data_t* next_task);

}  // namespace parperf::runtime::openmp
