// What an MPI operation event's site kind says about its part in a message (messages.hpp,
// wait_states.hpp).
#pragma once

#include <cstdint>

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

}  // namespace parperf::analysis
