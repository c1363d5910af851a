// The classes of communication calls the report groups communication by (DESIGN.md section 4: "each
// characteristic is also given per collective/communication class"), whichever model's calls they
// are: message passing (MPI) and the one-sided models (OpenSHMEM's puts, gets, atomics, locks...).
// The format's site-kind table says which kind is in which class.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "format/site_kinds.hpp"

namespace parperf::analysis {

// The classes are the format's (site_kinds.hpp): one table says which kind is in which class.
using MpiClass = format::SiteClass;

// The communication classes in report order; `management` is not one of them.
inline constexpr std::array<MpiClass, 14> kCommunicationClasses = {
    MpiClass::point_to_point, MpiClass::put,       MpiClass::get,         MpiClass::atomic,
    MpiClass::barrier,        MpiClass::broadcast, MpiClass::reduction,   MpiClass::all_to_all,
    MpiClass::gather_scatter, MpiClass::one_sided, MpiClass::memory_sync, MpiClass::lock,
    MpiClass::point_sync,     MpiClass::io};

// The communication class (or management) of a site kind; none for an interval, an OpenMP operation
// or a kind this version does not know (a later runtime's kind stays out of every class rather than
// being guessed into one).
inline std::optional<MpiClass> mpi_class(std::uint32_t kind) {
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  if (!info || info->site_class == MpiClass::interval || info->site_class == MpiClass::openmp_operation)
    return std::nullopt;
  return info->site_class;
}

// The JSON key and the word of the text protocol: "point_to_point", "all_to_all", ...
inline std::string_view mpi_class_key(MpiClass c) {
  switch (c) {
    case MpiClass::point_to_point:
      return "point_to_point";
    case MpiClass::barrier:
      return "barrier";
    case MpiClass::broadcast:
      return "broadcast";
    case MpiClass::reduction:
      return "reduction";
    case MpiClass::all_to_all:
      return "all_to_all";
    case MpiClass::gather_scatter:
      return "gather_scatter";
    case MpiClass::one_sided:
      return "one_sided";
    case MpiClass::io:
      return "io";
    case MpiClass::management:
      return "management";
    case MpiClass::put:
      return "put";
    case MpiClass::get:
      return "get";
    case MpiClass::atomic:
      return "atomic";
    case MpiClass::memory_sync:
      return "memory_sync";
    case MpiClass::lock:
      return "lock";
    case MpiClass::point_sync:
      return "point_sync";
    case MpiClass::interval:
    case MpiClass::openmp_operation:
      break;  // not MPI classes
  }
  return "unknown";
}

// The models' start-up and shut-down calls (docs/mpi.md, docs/shmem.md): never useful work.
inline bool is_startup_call(std::string_view name) {
  return name == "MPI_Init" || name == "MPI_Init_thread" || name == "shmem_init" ||
         name == "shmem_init_thread" || name == "start_pes";
}
inline bool is_shutdown_call(std::string_view name) {
  return name == "MPI_Finalize" || name == "shmem_finalize";
}

}  // namespace parperf::analysis
