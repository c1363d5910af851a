#include "runtime/openmp/site_names.hpp"

namespace parperf::runtime::openmp {

const char* site_name(format::SiteKind kind) noexcept {
  using K = format::SiteKind;
  switch (kind) {
    case K::omp_parallel:
      return "parallel";
    case K::omp_loop:
      return "loop";
    case K::omp_sections:
      return "sections";
    case K::omp_single:
      return "single";
    case K::omp_workshare:
      return "workshare";
    case K::omp_distribute:
      return "distribute";
    case K::omp_taskloop:
      return "taskloop";
    case K::omp_masked:
      return "masked";
    case K::omp_task:
      return "task";
    case K::omp_scope:
      return "scope";
    case K::omp_barrier:
      return "barrier";
    case K::omp_implicit_barrier:
      return "implicit barrier";
    case K::omp_join_barrier:
      return "implicit barrier";
    case K::omp_implementation_barrier:
      return "barrier (runtime)";
    case K::omp_taskwait:
      return "taskwait";
    case K::omp_taskgroup:
      return "taskgroup";
    case K::omp_reduction:
      return "reduction";
    case K::omp_critical:
      return "critical";
    case K::omp_lock:
      return "lock";
    case K::omp_nest_lock:
      return "nest lock";
    case K::omp_ordered:
      return "ordered";
    case K::omp_atomic:
      return "atomic";
    case K::omp_flush:
      return "flush";
    case K::omp_task_create:
      return "task creation";
    case K::omp_lock_init:
      return "lock init";
    case K::omp_lock_destroy:
      return "lock destroy";
    default:
      return "operation";
  }
}

}  // namespace parperf::runtime::openmp
