// Per communicator, a bounded sample of its collective instances, written into the profile's `mpi`
// section so that the analysis can match instances across ranks.
//
// The sample keeps the profile's size independent of the iteration count: a communicator keeps
// every instance whose sequence number is a multiple of its stride; when the sample is full the
// stride doubles and the sample drops every other entry. Every member rank sees the same sequence
// numbers (MPI orders the collectives of a communicator), so every rank keeps the same instances
// without talking to the others, and each kept instance stands for `stride` of them.
#pragma once

#include <cstdint>

#include "runtime/collector_api.h"
#include "runtime/section_records.hpp"

namespace parperf::mpi {

// Registers a communicator; returns its slot (>= 0), or -1 when the table is full (its collectives
// are then counted but not sampled). members_hash and ordinal identify it across ranks.
std::int32_t add_communicator(std::uint64_t members_hash, std::uint32_t ordinal, std::uint32_t size,
                              std::int64_t rank) noexcept;

// A collective on the communicator in `slot` was recorded at `where`: the rank arrived at `arrive`
// and left at `leave` (0: a non-blocking collective, which a Wait ends). Called by the thread that
// calls the communicator's collectives (MPI orders them).
void sample_collective(std::int32_t slot, const parperf_position& where, std::uint64_t arrive,
                       std::uint64_t leave) noexcept;

// The sequence number the next collective sampled on `slot` gets: what the event trace records as
// that collective's `match`. Every member counts the same collectives, so equal numbers on equal
// communicators are one instance. Read by the thread that calls the communicator's collectives.
std::uint64_t next_collective_sequence(std::int32_t slot) noexcept;

// The communicators registered so far, and the records of the first `count` of them with their
// samples (the section writer's).
std::uint32_t communicator_count() noexcept;
void write_communicators(runtime::SectionRecords& records, const parperf_section_writer* writer,
                         std::uint32_t count) noexcept;

}  // namespace parperf::mpi
