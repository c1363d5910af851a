#include "report/interval_kind.hpp"

#include "format/records.hpp"
#include "parperf/parperf.h"

namespace parperf::report {
namespace {

// One row per interval kind: how the text protocol says it, and its JSON key.
struct KindNames {
  std::uint32_t kind;
  std::string_view text;
  std::string_view key;
};

constexpr KindNames kKinds[] = {
    {PARPERF_KIND_PROGRAM, "program", "program"},
    {PARPERF_KIND_USER, "user", "user"},
    {PARPERF_KIND_PARALLEL_LOOP, "parallel loop", "parallel_loop"},
    {PARPERF_KIND_SEQUENTIAL_LOOP, "sequential loop", "sequential_loop"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_parallel), "parallel region", "omp_parallel"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_loop), "omp loop", "omp_loop"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_sections), "sections", "omp_sections"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_single), "single", "omp_single"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_workshare), "workshare", "omp_workshare"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_distribute), "distribute", "omp_distribute"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_taskloop), "taskloop", "omp_taskloop"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_masked), "masked", "omp_masked"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_task), "task", "omp_task"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_scope), "scope", "omp_scope"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_barrier), "barrier", "omp_barrier"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_implicit_barrier), "implicit barrier",
     "omp_implicit_barrier"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_join_barrier), "implicit barrier", "omp_join_barrier"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_implementation_barrier), "runtime barrier",
     "omp_implementation_barrier"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_taskwait), "taskwait", "omp_taskwait"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_taskgroup), "taskgroup", "omp_taskgroup"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_reduction), "reduction", "omp_reduction"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_critical), "critical", "omp_critical"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_lock), "lock", "omp_lock"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_nest_lock), "nest lock", "omp_nest_lock"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_ordered), "ordered", "omp_ordered"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_atomic), "atomic", "omp_atomic"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_flush), "flush", "omp_flush"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_task_create), "task creation", "omp_task_create"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_lock_init), "lock init", "omp_lock_init"},
    {static_cast<std::uint32_t>(format::SiteKind::omp_lock_destroy), "lock destroy", "omp_lock_destroy"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_send), "MPI send", "mpi_send"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_recv), "MPI receive", "mpi_recv"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_sendrecv), "MPI send-receive", "mpi_sendrecv"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_isend), "MPI non-blocking send", "mpi_isend"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_irecv), "MPI non-blocking receive", "mpi_irecv"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_start), "MPI start", "mpi_start"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_wait), "MPI wait", "mpi_wait"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_test), "MPI test", "mpi_test"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_probe), "MPI probe", "mpi_probe"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_barrier), "MPI barrier", "mpi_barrier"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_broadcast), "MPI broadcast", "mpi_broadcast"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_reduction), "MPI reduction", "mpi_reduction"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_all_to_all), "MPI all-to-all", "mpi_all_to_all"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_gather_scatter), "MPI gather/scatter",
     "mpi_gather_scatter"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_one_sided), "MPI one-sided", "mpi_one_sided"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_one_sided_sync), "MPI one-sided synchronization",
     "mpi_one_sided_sync"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_io), "MPI I/O", "mpi_io"},
    {static_cast<std::uint32_t>(format::SiteKind::mpi_management), "MPI management", "mpi_management"},
};

const KindNames* names_of(std::uint32_t kind) {
  for (const KindNames& names : kKinds)
    if (names.kind == kind) return &names;
  return nullptr;
}

}  // namespace

std::string_view kind_text(std::uint32_t kind) {
  const KindNames* names = names_of(kind);
  return names ? names->text : "unknown";
}

std::string_view kind_key(std::uint32_t kind) {
  const KindNames* names = names_of(kind);
  return names ? names->key : "unknown";
}

}  // namespace parperf::report
