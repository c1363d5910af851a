// What the OpenSHMEM collector keeps of its own and writes into the profile's `shmem` section
// (format/records.hpp): the PE, the PE count, and the traffic matrix's row of this PE: per target PE
// and operation (put, get, atomic), calls and bytes. Needs no shmem.h (tests/unit drive it alone).
#pragma once

#include <cstdint>

#include "format/records.hpp"

namespace parperf::shmem {

// Once shmem_init told the PE: the process's identity for the runtime, a zeroed row of `pe_count`
// targets (private memory, no allocation after this) and the section registered. Later calls are
// ignored.
void set_process(std::int64_t pe, std::int64_t pe_count) noexcept;

// One put, get or atomic into `target`'s memory (thread-safe: relaxed atomic adds). A target outside
// 0..pe_count-1, or a call before set_process, is not counted (the library rejects it anyway).
void add_traffic(format::OneSidedOperation operation, std::int64_t target, std::uint64_t bytes) noexcept;

// The section as the profile writer will write it, for tests: calls and bytes to `target`.
struct TrafficCell {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};
TrafficCell traffic_to(format::OneSidedOperation operation, std::int64_t target) noexcept;

}  // namespace parperf::shmem
