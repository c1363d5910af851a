#include "export/otf2_vocabulary.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <string>

#include "format/site_kinds.hpp"

namespace parperf::exports {

OTF2_Paradigm paradigm_of(std::uint32_t kind) {
  if (format::is_mpi_kind(kind)) return OTF2_PARADIGM_MPI;
  if (format::is_shmem_kind(kind)) return OTF2_PARADIGM_SHMEM;
  if (format::is_upc_kind(kind)) return OTF2_PARADIGM_UPC;
  if (kind >= 16 && kind < 64) return OTF2_PARADIGM_OPENMP;
  return OTF2_PARADIGM_USER;
}

OTF2_RegionRole role_of(std::uint32_t kind) {
  using format::SiteKind;
  switch (static_cast<SiteKind>(kind)) {
    case SiteKind::program:
    case SiteKind::user:
    case SiteKind::function:
      return OTF2_REGION_ROLE_FUNCTION;
    case SiteKind::branch:
      return OTF2_REGION_ROLE_CODE;
    case SiteKind::parallel_loop:
    case SiteKind::sequential_loop:
    case SiteKind::omp_loop:
    case SiteKind::omp_taskloop:
    case SiteKind::omp_distribute:
      return OTF2_REGION_ROLE_LOOP;
    case SiteKind::omp_parallel:
      return OTF2_REGION_ROLE_PARALLEL;
    case SiteKind::omp_sections:
      return OTF2_REGION_ROLE_SECTIONS;
    case SiteKind::omp_single:
      return OTF2_REGION_ROLE_SINGLE;
    case SiteKind::omp_workshare:
      return OTF2_REGION_ROLE_WORKSHARE;
    case SiteKind::omp_masked:
      return OTF2_REGION_ROLE_MASTER;
    case SiteKind::omp_task:
      return OTF2_REGION_ROLE_TASK;
    case SiteKind::omp_barrier:
    case SiteKind::omp_implementation_barrier:
    case SiteKind::mpi_barrier:
    case SiteKind::shmem_barrier:
      return OTF2_REGION_ROLE_BARRIER;
    case SiteKind::omp_implicit_barrier:
    case SiteKind::omp_join_barrier:
      return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    case SiteKind::omp_taskwait:
    case SiteKind::omp_taskgroup:
      return OTF2_REGION_ROLE_TASK_WAIT;
    case SiteKind::omp_critical:
    case SiteKind::omp_lock:
    case SiteKind::omp_nest_lock:
      return OTF2_REGION_ROLE_CRITICAL;
    case SiteKind::omp_ordered:
      return OTF2_REGION_ROLE_ORDERED;
    case SiteKind::omp_atomic:
      return OTF2_REGION_ROLE_ATOMIC;
    case SiteKind::omp_flush:
      return OTF2_REGION_ROLE_FLUSH;
    case SiteKind::omp_task_create:
      return OTF2_REGION_ROLE_TASK_CREATE;
    case SiteKind::mpi_broadcast:
    case SiteKind::shmem_broadcast:
      return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case SiteKind::mpi_reduction:
    case SiteKind::mpi_all_to_all:
    case SiteKind::shmem_reduction:
    case SiteKind::shmem_all_to_all:
      return OTF2_REGION_ROLE_COLL_ALL2ALL;
    case SiteKind::mpi_gather_scatter:
    case SiteKind::shmem_gather_scatter:
      return OTF2_REGION_ROLE_COLL_OTHER;
    case SiteKind::mpi_one_sided:
    case SiteKind::mpi_one_sided_sync:
    case SiteKind::shmem_put:
    case SiteKind::shmem_get:
    case SiteKind::shmem_put_nbi:
    case SiteKind::shmem_get_nbi:
    case SiteKind::shmem_atomic:
    case SiteKind::shmem_memory_sync:
    case SiteKind::shmem_lock:
    case SiteKind::shmem_point_sync:
      return OTF2_REGION_ROLE_RMA;
    case SiteKind::mpi_io:
      return OTF2_REGION_ROLE_FILE_IO;
    default:
      return format::is_mpi_kind(kind) && kind < 80 ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_CODE;
  }
}

OTF2_CollectiveOp collective_of(std::string_view name, std::uint32_t kind) {
  static const std::map<std::string_view, OTF2_CollectiveOp, std::less<>> kOps = {
      {"Barrier", OTF2_COLLECTIVE_OP_BARRIER},
      {"Bcast", OTF2_COLLECTIVE_OP_BCAST},
      {"Gather", OTF2_COLLECTIVE_OP_GATHER},
      {"Gatherv", OTF2_COLLECTIVE_OP_GATHERV},
      {"Scatter", OTF2_COLLECTIVE_OP_SCATTER},
      {"Scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
      {"Allgather", OTF2_COLLECTIVE_OP_ALLGATHER},
      {"Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
      {"Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL},
      {"Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
      {"Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW},
      {"Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
      {"Reduce", OTF2_COLLECTIVE_OP_REDUCE},
      {"Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
      {"Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
      {"Scan", OTF2_COLLECTIVE_OP_SCAN},
      {"Exscan", OTF2_COLLECTIVE_OP_EXSCAN},
  };
  std::string_view op = name;
  if (op.starts_with("MPI_")) op.remove_prefix(4);
  if (auto it = kOps.find(op); it != kOps.end()) return it->second;
  if (op.starts_with("I")) {
    std::string blocking(op.substr(1));
    if (!blocking.empty())
      blocking[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(blocking[0])));
    if (auto it = kOps.find(blocking); it != kOps.end()) return it->second;
  }
  switch (static_cast<format::SiteKind>(kind)) {
    case format::SiteKind::mpi_broadcast:
      return OTF2_COLLECTIVE_OP_BCAST;
    case format::SiteKind::mpi_reduction:
      return OTF2_COLLECTIVE_OP_ALLREDUCE;
    case format::SiteKind::mpi_all_to_all:
      return OTF2_COLLECTIVE_OP_ALLTOALL;
    case format::SiteKind::mpi_gather_scatter:
      return OTF2_COLLECTIVE_OP_ALLGATHER;
    default:
      return OTF2_COLLECTIVE_OP_BARRIER;
  }
}

CollectiveSizes collective_sizes(OTF2_CollectiveOp op, std::uint64_t bytes, bool root, std::uint64_t ranks) {
  const std::uint64_t n = std::max<std::uint64_t>(ranks, 1);
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      return {};
    case OTF2_COLLECTIVE_OP_BCAST:  // every rank recorded b
      return root ? CollectiveSizes{n * bytes, bytes} : CollectiveSizes{0, bytes};
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:  // the root recorded N·b sent and its own b received
      return root ? CollectiveSizes{bytes - bytes / (n + 1), bytes / (n + 1)} : CollectiveSizes{0, bytes};
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:  // the root recorded its own b sent and N·b received
      return root ? CollectiveSizes{bytes / (n + 1), bytes - bytes / (n + 1)} : CollectiveSizes{bytes, 0};
    case OTF2_COLLECTIVE_OP_REDUCE:  // every rank recorded b
      return root ? CollectiveSizes{bytes, n * bytes} : CollectiveSizes{bytes, 0};
    case OTF2_COLLECTIVE_OP_ALLREDUCE:  // 2·b
      return {n * (bytes / 2), n * (bytes / 2)};
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN:  // 2·b
      return {bytes / 2, bytes / 2};
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV: {  // b + N·b
      const std::uint64_t block = bytes / (n + 1);
      return {n * block, bytes - block};
    }
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: {  // N·b + b
      const std::uint64_t block = bytes / (n + 1);
      return {bytes - block, block};
    }
    default:  // all-to-all: as much sent as received
      return {bytes - bytes / 2, bytes / 2};
  }
}

}  // namespace parperf::exports
