// What an MPI operation event's site kind says about its part in a message (messages.hpp,
// wait_states.hpp).
#pragma once

#include <cstdint>
#include <string_view>

#include "format/site_kinds.hpp"

namespace parperf::analysis {

constexpr bool is_kind(std::uint32_t kind, format::SiteKind k) {
  return kind == static_cast<std::uint32_t>(k);
}

// Sends that may block until their receive is posted (synchronous or rendezvous).
constexpr bool may_block_until_posted(std::uint32_t kind) {
  return is_kind(kind, format::SiteKind::mpi_send) || is_kind(kind, format::SiteKind::mpi_sendrecv);
}

// The call a message leaves with: those, and an Isend (the message leaves at its start; it never
// blocks).
constexpr bool sends_message(std::uint32_t kind) {
  return may_block_until_posted(kind) || is_kind(kind, format::SiteKind::mpi_isend);
}

// Receives that block until their message arrived: Recv, Sendrecv, the Wait of an Irecv.
constexpr bool blocks_until_received(std::uint32_t kind) {
  return is_kind(kind, format::SiteKind::mpi_recv) || is_kind(kind, format::SiteKind::mpi_sendrecv) ||
         is_kind(kind, format::SiteKind::mpi_wait);
}

// The call a message arrives in: those, and a Test (which returns whether or not it did). An Irecv
// only posts its receive: the Wait/Test that completed it is where the message arrived.
constexpr bool receives_message(std::uint32_t kind) {
  return blocks_until_received(kind) || is_kind(kind, format::SiteKind::mpi_test);
}

// The data a one-sided call moves, for the activity graph: a put's from the origin into the target's
// memory, a get's back. MPI's share one kind (mpi_one_sided) and are told apart by name: puts and
// accumulates write the target, gets, fetching accumulates and atomics read it (their result comes
// back). OpenSHMEM's by their kinds' class. None for the synchronizations and any other call.
enum class OneSidedData : std::uint8_t { none, put, get };

inline OneSidedData one_sided_data(std::uint32_t kind, std::string_view name) {
  if (is_kind(kind, format::SiteKind::mpi_one_sided)) {
    for (std::string_view put : {"MPI_Put", "MPI_Rput", "MPI_Accumulate", "MPI_Raccumulate"})
      if (name == put) return OneSidedData::put;
    for (std::string_view get : {"MPI_Get", "MPI_Rget", "MPI_Get_accumulate", "MPI_Rget_accumulate",
                                 "MPI_Fetch_and_op", "MPI_Compare_and_swap"})
      if (name == get) return OneSidedData::get;
    return OneSidedData::none;
  }
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  if (!info) return OneSidedData::none;
  if (info->site_class == format::SiteClass::put) return OneSidedData::put;
  if (info->site_class == format::SiteClass::get) return OneSidedData::get;
  return OneSidedData::none;
}

}  // namespace parperf::analysis
