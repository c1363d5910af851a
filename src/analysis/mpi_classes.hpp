// The classes of MPI calls the report groups communication by (DESIGN.md section 4: "each
// characteristic is also given per collective/communication class"). One class per range of the
// format's MPI site kinds.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "format/records.hpp"

namespace parperf::analysis {

enum class MpiClass {
  point_to_point,  // 64-72: send, receive, their non-blocking forms and completions, probes
  barrier,         // 80
  broadcast,       // 81
  reduction,       // 82
  all_to_all,      // 83
  gather_scatter,  // 84
  one_sided,       // 90-91: RMA calls and their synchronization
  io,              // 96: MPI-IO
  management,      // 100: Init, Finalize, communicators, windows, files: productive Sys, not communication
};

// The communication classes in report order; `management` is not one of them.
inline constexpr std::array<MpiClass, 8> kCommunicationClasses = {
    MpiClass::point_to_point, MpiClass::barrier,        MpiClass::broadcast, MpiClass::reduction,
    MpiClass::all_to_all,     MpiClass::gather_scatter, MpiClass::one_sided, MpiClass::io};

// The class of an MPI site kind; none for a kind that is not MPI or that this version does not know
// (a later runtime's kind stays out of every class rather than being guessed into one).
inline std::optional<MpiClass> mpi_class(std::uint32_t kind) {
  using format::SiteKind;
  if (!format::is_mpi_kind(kind)) return std::nullopt;
  if (kind >= static_cast<std::uint32_t>(SiteKind::mpi_send) &&
      kind <= static_cast<std::uint32_t>(SiteKind::mpi_probe))
    return MpiClass::point_to_point;
  switch (static_cast<SiteKind>(kind)) {
    case SiteKind::mpi_barrier:
      return MpiClass::barrier;
    case SiteKind::mpi_broadcast:
      return MpiClass::broadcast;
    case SiteKind::mpi_reduction:
      return MpiClass::reduction;
    case SiteKind::mpi_all_to_all:
      return MpiClass::all_to_all;
    case SiteKind::mpi_gather_scatter:
      return MpiClass::gather_scatter;
    case SiteKind::mpi_one_sided:
    case SiteKind::mpi_one_sided_sync:
      return MpiClass::one_sided;
    case SiteKind::mpi_io:
      return MpiClass::io;
    case SiteKind::mpi_management:
      return MpiClass::management;
    default:
      return std::nullopt;
  }
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
  }
  return "unknown";
}

}  // namespace parperf::analysis
