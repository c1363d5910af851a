#include "runtime/shmem/shmem_section.hpp"

#include <atomic>

#include "runtime/collector_api.h"
#include "runtime/private_memory.hpp"
#include "runtime/section_records.hpp"

namespace parperf::shmem {
namespace {

constexpr std::uint32_t kOperations = 3;  // put, get, atomic: format::OneSidedOperation

struct Cell {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> bytes{0};
};

std::int64_t g_pe = 0;
std::int64_t g_pe_count = 0;
std::atomic<Cell*> g_cells{nullptr};  // g_pe_count × kOperations, by target then operation
std::atomic<bool> g_set{false};

Cell* cell(Cell* cells, format::OneSidedOperation operation, std::int64_t target) {
  return &cells[static_cast<std::uint64_t>(target) * kOperations + static_cast<std::uint32_t>(operation)];
}

// The ShmemRecord, then a ShmemTrafficRecord for every cell with calls. Reads the counters without
// stopping the program's threads: a call that lands during the write is in the next profile.
void write_section(parperf_section_writer* writer, void*) {
  runtime::SectionSink sink(writer);
  runtime::SectionRecords records(sink);
  Cell* cells = g_cells.load(std::memory_order_acquire);
  format::ShmemRecord shmem;
  shmem.pe = g_pe;
  shmem.pe_count = g_pe_count;
  shmem.traffic_lost = cells ? 0 : 1;
  // Count first, then write the same rows: a cell whose calls were 0 at the count stays out.
  std::uint32_t count = 0;
  for (std::int64_t t = 0; cells && t < g_pe_count; ++t)
    for (std::uint32_t o = 0; o < kOperations; ++o)
      if (cell(cells, static_cast<format::OneSidedOperation>(o), t)->calls.load(std::memory_order_relaxed) >
          0)
        ++count;
  shmem.traffic_count = count;
  records.record(shmem);
  std::uint32_t written = 0;
  for (std::int64_t t = 0; cells && t < g_pe_count && written < count; ++t) {
    for (std::uint32_t o = 0; o < kOperations && written < count; ++o) {
      const Cell* c = cell(cells, static_cast<format::OneSidedOperation>(o), t);
      format::ShmemTrafficRecord row;
      row.calls = c->calls.load(std::memory_order_relaxed);
      if (row.calls == 0) continue;
      row.target = t;
      row.operation = static_cast<format::OneSidedOperation>(o);
      row.bytes = c->bytes.load(std::memory_order_relaxed);
      records.record(row);
      ++written;
    }
  }
}

}  // namespace

void set_process(std::int64_t pe, std::int64_t pe_count) noexcept {
  if (pe_count < 1 || pe < 0 || pe >= pe_count || g_set.exchange(true)) return;
  g_pe = pe;
  g_pe_count = pe_count;
  const std::size_t cells = static_cast<std::size_t>(pe_count) * kOperations;
  void* memory = runtime::allocate_private(cells * sizeof(Cell), alignof(Cell));
  if (memory) {
    Cell* table = static_cast<Cell*>(memory);  // zeroed memory is zeroed atomics
    for (std::size_t i = 0; i < cells; ++i) new (&table[i]) Cell();
    g_cells.store(table, std::memory_order_release);
  }
  parperf_collector_set_process(pe, pe_count);
  parperf_collector_register_section(static_cast<std::uint32_t>(format::SectionType::shmem), &write_section,
                                     nullptr);
}

void add_traffic(format::OneSidedOperation operation, std::int64_t target, std::uint64_t bytes) noexcept {
  Cell* cells = g_cells.load(std::memory_order_relaxed);
  if (!cells || target < 0 || target >= g_pe_count) return;
  Cell* c = cell(cells, operation, target);
  c->calls.fetch_add(1, std::memory_order_relaxed);
  c->bytes.fetch_add(bytes, std::memory_order_relaxed);
}

TrafficCell traffic_to(format::OneSidedOperation operation, std::int64_t target) noexcept {
  Cell* cells = g_cells.load(std::memory_order_acquire);
  if (!cells || target < 0 || target >= g_pe_count) return {};
  const Cell* c = cell(cells, operation, target);
  return {c->calls.load(std::memory_order_relaxed), c->bytes.load(std::memory_order_relaxed)};
}

}  // namespace parperf::shmem
