// The clock exchanges of MPI_Init and MPI_Finalize (clock_sync.hpp measures them), kept for the
// profile's `mpi` section: two on a rank != 0 (its own halves), two per other rank on rank 0.
#pragma once

#include <cstdint>

#include "runtime/collector_api.h"
#include "runtime/section_records.hpp"

namespace parperf::mpi {

// On rank 0, once the world's size is known: room for every other rank's exchanges.
void prepare_master_exchanges(std::int64_t world_size) noexcept;

// A clock exchange with the smallest round trip (phase: 0 MPI_Init, 1 MPI_Finalize). On a rank
// r != 0: rank = r, its own send and receive ticks, master = 0. On rank 0: one call per other rank
// with that rank and the ticks at which rank 0 answered it (send = recv = 0).
void record_clock_exchange(std::uint32_t phase, std::int64_t rank, std::uint64_t send_ticks,
                           std::uint64_t recv_ticks, std::uint64_t master_ticks,
                           std::uint64_t round_trip_ticks) noexcept;

// The exchanges recorded so far, and the records of (at most) `count` of them (the section writer's).
std::uint32_t clock_exchange_count() noexcept;
void write_clock_exchanges(runtime::SectionRecords& records, const parperf_section_writer* writer,
                           std::uint32_t count) noexcept;

}  // namespace parperf::mpi
