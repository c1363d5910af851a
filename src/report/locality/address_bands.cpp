#include "report/locality/address_bands.hpp"

#include <algorithm>

namespace parperf::report {
namespace {

// A band as a range [begin, end) of the sorted addresses.
struct Range {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// The position i of the band's largest gap (between sorted[i - 1] and sorted[i]) if the band should
// be cut there, 0 otherwise; `gap` receives its size.
std::size_t cut_position(std::span<const std::uint64_t> sorted, Range range, std::uint64_t& gap) {
  gap = 0;
  std::size_t position = 0;
  for (std::size_t i = range.begin + 1; i < range.end; ++i) {
    const std::uint64_t g = sorted[i] - sorted[i - 1];
    if (g > gap) {
      gap = g;
      position = i;
    }
  }
  if (position == 0) return 0;
  const std::uint64_t span = sorted[range.end - 1] - sorted[range.begin];
  return gap > span / 4 && gap >= kMinBandGap ? position : 0;
}

}  // namespace

std::vector<AddressBand> address_bands(std::span<const std::uint64_t> addresses, std::size_t max_bands) {
  if (addresses.empty()) return {};
  std::vector<std::uint64_t> all(addresses.begin(), addresses.end());
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> sorted = all;
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());

  std::vector<Range> ranges = {{0, sorted.size()}};
  while (ranges.size() < std::max<std::size_t>(max_bands, 1)) {
    std::size_t best = ranges.size();
    std::size_t best_position = 0;
    std::uint64_t best_gap = 0;
    for (std::size_t r = 0; r < ranges.size(); ++r) {
      std::uint64_t gap = 0;
      const std::size_t position = cut_position(sorted, ranges[r], gap);
      if (position != 0 && gap > best_gap) {
        best = r;
        best_position = position;
        best_gap = gap;
      }
    }
    if (best == ranges.size()) break;
    const Range upper = {best_position, ranges[best].end};
    ranges[best].end = best_position;
    ranges.insert(ranges.begin() + static_cast<std::ptrdiff_t>(best) + 1, upper);
  }

  std::vector<AddressBand> bands;
  for (const Range& r : ranges) {
    const std::uint64_t low = sorted[r.begin];
    const std::uint64_t high = sorted[r.end - 1];
    const auto first = std::lower_bound(all.begin(), all.end(), low);
    const auto last = std::upper_bound(all.begin(), all.end(), high);
    bands.push_back({low, high, static_cast<std::size_t>(last - first)});
  }
  return bands;
}

std::size_t band_of(std::span<const AddressBand> bands, std::uint64_t address) {
  const auto after = std::upper_bound(bands.begin(), bands.end(), address,
                                      [](std::uint64_t a, const AddressBand& band) { return a < band.low; });
  return after == bands.begin() ? 0 : static_cast<std::size_t>(after - bands.begin()) - 1;
}

}  // namespace parperf::report
