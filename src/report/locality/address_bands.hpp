// The address axis of the scatter plot. A program's accesses usually fall in a few regions far
// apart (the executable's data, the heap, mmap'ed arrays, the stacks, 2^40 bytes and more apart): on
// one linear axis each region would be a flat line. So the axis is cut at the large gaps and each
// region gets a band of its own.
//
// The rule: a band is cut at its largest gap between consecutive distinct addresses when that gap
// is more than a quarter of the band's span (high - low), i.e. when the band would otherwise be at
// least a quarter empty, and at least kMinBandGap bytes (smaller gaps are within one allocation's
// neighbourhood and a sparse sample of one array would otherwise be cut at random). The band with
// the largest such gap is cut first, and so on until no band qualifies or there are max_bands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace parperf::report {

inline constexpr std::uint64_t kMinBandGap = std::uint64_t{1} << 20;  // 1 MiB
inline constexpr std::size_t kMaxAddressBands = 8;

struct AddressBand {
  std::uint64_t low = 0;   // smallest address in the band
  std::uint64_t high = 0;  // largest address in the band
  std::size_t points = 0;  // addresses given in the band, duplicates included
};

// The bands of the addresses (any order, duplicates allowed), by ascending address; none for none.
std::vector<AddressBand> address_bands(std::span<const std::uint64_t> addresses,
                                       std::size_t max_bands = kMaxAddressBands);

// The index of the band holding `address`, which must lie in one of them.
std::size_t band_of(std::span<const AddressBand> bands, std::uint64_t address);

}  // namespace parperf::report
