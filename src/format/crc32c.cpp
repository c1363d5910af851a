#include "format/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace parperf::format {
namespace {

constexpr std::uint32_t kPolynomial = 0x82f63b78u;  // reflected Castagnoli polynomial

constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1u) ? (c >> 1) ^ kPolynomial : c >> 1;
    table[i] = c;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> kTable = make_table();

std::uint32_t crc32c_table(std::uint32_t crc, const std::uint8_t* bytes, std::size_t size) noexcept {
  crc = ~crc;
  for (std::size_t i = 0; i < size; ++i) crc = kTable[(crc ^ bytes[i]) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

#if defined(__x86_64__)
// SSE 4.2's crc32 instruction computes the same CRC-32C, 8 bytes at a time: the memory traces are
// gigabytes, where the table's byte at a time would dominate the cost of writing and reading them.
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t crc, const std::uint8_t* bytes,
                                                             std::size_t size) noexcept {
  std::uint64_t c = ~crc;
  for (; size >= 8; size -= 8, bytes += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes, sizeof word);
    c = _mm_crc32_u64(c, word);
  }
  auto c32 = static_cast<std::uint32_t>(c);
  for (; size > 0; --size, ++bytes) c32 = _mm_crc32_u8(c32, *bytes);
  return ~c32;
}
#endif

}  // namespace

std::uint32_t crc32c_update(std::uint32_t crc, const void* data, std::size_t size) noexcept {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) return crc32c_sse42(crc, bytes, size);
#endif
  return crc32c_table(crc, bytes, size);
}

}  // namespace parperf::format
