// CRC-32C (Castagnoli), the checksum of every profile section. Incremental and allocation-free so
// the runtime can compute it while streaming a profile out of a signal handler.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parperf::format {

// Continues a CRC over `size` more bytes; start with crc = 0.
std::uint32_t crc32c_update(std::uint32_t crc, const void* data, std::size_t size) noexcept;

}  // namespace parperf::format
