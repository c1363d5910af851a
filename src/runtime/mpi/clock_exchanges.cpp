#include "runtime/mpi/clock_exchanges.hpp"

#include <atomic>

#include "format/records.hpp"
#include "runtime/private_memory.hpp"

namespace parperf::mpi {
namespace {

struct ClockExchange {
  std::atomic<bool> present{false};
  std::int64_t rank = 0;
  std::uint64_t send = 0;
  std::uint64_t recv = 0;
  std::uint64_t master = 0;
  std::uint64_t round_trip = 0;
};
constexpr std::int64_t kMaxClockRanks = 1 << 20;
constinit ClockExchange g_own_exchanges[2];
ClockExchange* g_master_exchanges = nullptr;  // [phase * world_size + rank], on rank 0
std::int64_t g_master_exchange_ranks = 0;

}  // namespace

void prepare_master_exchanges(std::int64_t world_size) noexcept {
  if (world_size <= 1 || world_size > kMaxClockRanks || g_master_exchanges) return;
  g_master_exchanges = static_cast<ClockExchange*>(runtime::allocate_private(
      sizeof(ClockExchange) * 2 * static_cast<std::size_t>(world_size), alignof(ClockExchange)));
  if (g_master_exchanges) g_master_exchange_ranks = world_size;
}

void record_clock_exchange(std::uint32_t phase, std::int64_t rank, std::uint64_t send_ticks,
                           std::uint64_t recv_ticks, std::uint64_t master_ticks,
                           std::uint64_t round_trip_ticks) noexcept {
  if (phase > 1) return;
  ClockExchange* e = nullptr;
  if (master_ticks != 0 && g_master_exchanges && rank >= 0 && rank < g_master_exchange_ranks)
    e = &g_master_exchanges[phase * g_master_exchange_ranks + rank];
  else if (master_ticks == 0)
    e = &g_own_exchanges[phase];
  if (!e) return;
  e->rank = rank;
  e->send = send_ticks;
  e->recv = recv_ticks;
  e->master = master_ticks;
  e->round_trip = round_trip_ticks;
  e->present.store(true, std::memory_order_release);
}

std::uint32_t clock_exchange_count() noexcept {
  std::uint32_t count = 0;
  for (const ClockExchange& e : g_own_exchanges) count += e.present.load(std::memory_order_acquire);
  for (std::int64_t i = 0; i < 2 * g_master_exchange_ranks; ++i)
    count += g_master_exchanges[i].present.load(std::memory_order_acquire);
  return count;
}

// An exchange that appeared after counting is not written: the count is what was read.
void write_clock_exchanges(runtime::SectionRecords& records, const parperf_section_writer* writer,
                           std::uint32_t count) noexcept {
  std::uint32_t written = 0;
  auto write_exchange = [&](const ClockExchange& e, std::uint32_t phase) {
    if (!e.present.load(std::memory_order_acquire) || written == count) return;
    format::ClockSyncRecord r;
    r.phase = static_cast<format::ClockPhase>(phase);
    r.rank = e.rank;
    r.send_ns = e.send ? parperf_section_time_ns(writer, e.send) : 0;
    r.recv_ns = e.recv ? parperf_section_time_ns(writer, e.recv) : 0;
    r.master_ns = e.master ? parperf_section_time_ns(writer, e.master) : 0;
    r.round_trip_ns = parperf_section_duration_ns(writer, e.round_trip);
    records.record(r);
    ++written;
  };
  for (std::uint32_t phase = 0; phase < 2; ++phase) write_exchange(g_own_exchanges[phase], phase);
  for (std::uint32_t phase = 0; phase < 2; ++phase)
    for (std::int64_t rank = 0; rank < g_master_exchange_ranks; ++rank)
      write_exchange(g_master_exchanges[phase * g_master_exchange_ranks + rank], phase);
}

}  // namespace parperf::mpi
