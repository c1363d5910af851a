#include "runtime/mpi/clock_sync.hpp"

#include <cstdint>
#include <cstdlib>

#include "runtime/collector_api.h"
#include "runtime/mpi/clock_exchanges.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::mpi {
namespace {

NetworkFigures g_network;  // written once at MPI_Init, before the program's own calls
std::uint64_t g_overhead_allowance = 0;

constexpr int kRounds = 16;
constexpr int kTag = 0x7070;
constexpr int kBandwidthBytes = 1 << 20;
constexpr int kBandwidthRounds = 3;

// Rank 0's side of the exchange with `peer`: answer each ping with the time of answering, then
// learn which round the peer found best and keep that round's time.
void answer(MPI_Comm comm, int peer, std::uint32_t phase) {
  std::uint64_t answered[kRounds] = {};
  for (int round = 0; round < kRounds; ++round) {
    std::uint64_t ping = 0;
    PMPI_Recv(&ping, 1, MPI_UINT64_T, peer, kTag, comm, MPI_STATUS_IGNORE);
    answered[round] = parperf_collector_now();
    PMPI_Send(&answered[round], 1, MPI_UINT64_T, peer, kTag, comm);
  }
  std::int32_t best = 0;
  PMPI_Recv(&best, 1, MPI_INT32_T, peer, kTag, comm, MPI_STATUS_IGNORE);
  if (best >= 0 && best < kRounds) record_clock_exchange(phase, peer, 0, 0, answered[best], 0);
}

// A rank's side: ping rank 0, keep the round with the smallest round trip.
std::uint64_t ping(MPI_Comm comm, int rank, std::uint32_t phase) {
  std::int32_t best = 0;
  std::uint64_t best_send = 0, best_recv = 0, best_trip = UINT64_MAX;
  for (int round = 0; round < kRounds; ++round) {
    std::uint64_t master = 0;
    const std::uint64_t send = parperf_collector_now();
    PMPI_Send(&send, 1, MPI_UINT64_T, 0, kTag, comm);
    PMPI_Recv(&master, 1, MPI_UINT64_T, 0, kTag, comm, MPI_STATUS_IGNORE);
    const std::uint64_t recv = parperf_collector_now();
    if (recv - send < best_trip) {
      best_trip = recv - send;
      best_send = send;
      best_recv = recv;
      best = round;
    }
  }
  PMPI_Send(&best, 1, MPI_INT32_T, 0, kTag, comm);
  record_clock_exchange(phase, rank, best_send, best_recv, 0, best_trip);
  return best_trip;
}

// Rank 1 sends rank 0 a large message a few times: the fastest transfer less the latency gives
// the bandwidth the estimates of transfer times use.
double measure_ticks_per_byte(MPI_Comm comm, int rank, std::uint64_t latency_ticks) {
  char* buffer = static_cast<char*>(runtime::allocate_private(kBandwidthBytes));
  std::uint64_t fastest = UINT64_MAX;
  const int ok = buffer != nullptr;
  int all_ok = 0;
  PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (all_ok && rank <= 1) {
    for (int round = 0; round < kBandwidthRounds; ++round) {
      char ack = 0;
      const std::uint64_t start = parperf_collector_now();
      if (rank == 1) {
        PMPI_Send(buffer, kBandwidthBytes, MPI_BYTE, 0, kTag, comm);
        PMPI_Recv(&ack, 1, MPI_BYTE, 0, kTag, comm, MPI_STATUS_IGNORE);
        const std::uint64_t trip = parperf_collector_now() - start;
        if (trip < fastest) fastest = trip;
      } else {
        PMPI_Recv(buffer, kBandwidthBytes, MPI_BYTE, 1, kTag, comm, MPI_STATUS_IGNORE);
        PMPI_Send(&ack, 1, MPI_BYTE, 1, kTag, comm);
      }
    }
  }
  runtime::release_private(buffer, kBandwidthBytes);
  double ticks_per_byte = 0;
  if (rank == 1 && fastest != UINT64_MAX && fastest > 2 * latency_ticks)
    ticks_per_byte = static_cast<double>(fastest - 2 * latency_ticks) / kBandwidthBytes;
  PMPI_Bcast(&ticks_per_byte, 1, MPI_DOUBLE, 1, comm);
  return ticks_per_byte;
}

}  // namespace

NetworkFigures exchange_clocks(MPI_Comm comm, std::uint32_t phase) noexcept {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  NetworkFigures figures;
  if (size < 2) return figures;
  std::uint64_t trip = UINT64_MAX;
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0)
      answer(comm, peer, phase);
    else if (rank == peer)
      trip = ping(comm, rank, phase);
  }
  std::uint64_t smallest = 0;
  PMPI_Allreduce(&trip, &smallest, 1, MPI_UINT64_T, MPI_MIN, comm);
  figures.latency_ticks = smallest / 2;
  if (phase == 0) figures.ticks_per_byte = measure_ticks_per_byte(comm, rank, figures.latency_ticks);
  return figures;
}

}  // namespace parperf::mpi

namespace parperf::mpi {

void set_network_figures(const NetworkFigures& figures) noexcept {
  g_network = figures;
  g_overhead_allowance =
      2 * figures.latency_ticks + static_cast<std::uint64_t>(20000 * parperf_collector_ticks_per_ns());
}

std::uint64_t call_overhead_allowance_ticks() noexcept { return g_overhead_allowance; }

std::uint64_t expected_transfer_ticks(std::uint64_t bytes) noexcept {
  return g_network.latency_ticks +
         static_cast<std::uint64_t>(g_network.ticks_per_byte * static_cast<double>(bytes));
}

}  // namespace parperf::mpi
