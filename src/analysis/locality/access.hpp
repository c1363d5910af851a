// One memory access as the locality engine sees it: what the memory collector records, after the
// caller has mapped the access's code address to a function id and its thread to a thread index.
#pragma once

#include <cstdint>

namespace parperf::locality {

struct Access {
  std::uint64_t address = 0;   // first byte accessed
  std::uint32_t function = 0;  // caller-assigned id (e.g. after symbolization)
  std::uint16_t thread = 0;    // thread index
  std::uint8_t size = 0;       // bytes; spans ceil(size / word_bytes) words, at least one
  bool store = false;          // false: load
  // Accesses of the thread a sampling capturer left out just before this one: they age the spatial
  // window as they would have (format::skipped_before).
  std::uint16_t skipped_before = 0;
};

}  // namespace parperf::locality
