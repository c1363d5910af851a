#include "runtime/mpi/mpi_section.hpp"

#include <atomic>
#include <cstring>
#include <string_view>

#include "format/records.hpp"
#include "runtime/collector_api.h"
#include "runtime/mpi/clock_exchanges.hpp"
#include "runtime/mpi/communicator_samples.hpp"
#include "runtime/section_records.hpp"

namespace parperf::mpi {
namespace {

std::int64_t g_world_rank = 0;
std::int64_t g_world_size = 1;
std::int32_t g_thread_level = 0;
std::uint64_t g_latency_ns = 0;
std::uint64_t g_bandwidth = 0;
char g_library[256] = "";
std::atomic<bool> g_section_registered{false};

// The section: the MPI record with the counts of what follows, the clock exchanges, then each
// communicator with its sampled instances.
void write_section(parperf_section_writer* writer, void*) {
  runtime::SectionSink sink(writer);
  runtime::SectionRecords records(sink);
  format::MpiRecord mpi;
  mpi.world_rank = g_world_rank;
  mpi.world_size = g_world_size;
  mpi.thread_level = g_thread_level;
  mpi.latency_ns = g_latency_ns;
  mpi.bandwidth_bytes_per_s = g_bandwidth;
  mpi.library = std::string_view(g_library, std::strlen(g_library));
  mpi.clock_count = clock_exchange_count();
  mpi.communicator_count = communicator_count();
  records.record(mpi);
  write_clock_exchanges(records, writer, mpi.clock_count);
  write_communicators(records, writer, mpi.communicator_count);
}

}  // namespace

void set_process(std::int64_t world_rank, std::int64_t world_size, std::int32_t thread_level,
                 const char* library) noexcept {
  g_world_rank = world_rank;
  g_world_size = world_size;
  g_thread_level = thread_level;
  std::strncpy(g_library, library ? library : "", sizeof g_library - 1);
  parperf_collector_set_process(world_rank, world_size);
  if (world_rank == 0) prepare_master_exchanges(world_size);
  if (!g_section_registered.exchange(true))
    parperf_collector_register_section(static_cast<std::uint32_t>(format::SectionType::mpi), &write_section,
                                       nullptr);
}

void set_network(std::uint64_t latency_ns, std::uint64_t bandwidth_bytes_per_s) noexcept {
  g_latency_ns = latency_ns;
  g_bandwidth = bandwidth_bytes_per_s;
}

}  // namespace parperf::mpi
