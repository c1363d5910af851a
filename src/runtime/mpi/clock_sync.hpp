// Clock offsets between ranks (DESIGN.md section 5) and the point-to-point figures the collector's
// estimates need. Rank 0 plays ping-pong with every other rank in turn, a few rounds each; the
// round with the smallest round trip bounds the offset best (offset = t_master − (t_send + t_recv)/2)
// and is handed to the runtime, which writes the times in the profile for the analysis to correct.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace parperf::mpi {

struct NetworkFigures {
  std::uint64_t latency_ticks = 0;  // half the smallest round trip of a tiny message
  double ticks_per_byte = 0;        // 0 when not measured
};

// Collective over `comm` (a private duplicate of MPI_COMM_WORLD). phase: 0 at MPI_Init, 1 at
// MPI_Finalize. Returns the figures measured at this phase, the same on every rank.
NetworkFigures exchange_clocks(MPI_Comm comm, std::uint32_t phase) noexcept;

// The figures the estimates use from now on (set once, after MPI_Init's exchange).
void set_network_figures(const NetworkFigures& figures) noexcept;
// How long a message of `bytes` takes when its partner is ready: latency + bytes / bandwidth.
// A blocking call that lasts longer waited for its partner (Real_sync) for the difference.
std::uint64_t expected_transfer_ticks(std::uint64_t bytes) noexcept;
// How far beyond that estimate a call may run on its own overhead: 2 latencies + 20 us.
std::uint64_t call_overhead_allowance_ticks() noexcept;

}  // namespace parperf::mpi
