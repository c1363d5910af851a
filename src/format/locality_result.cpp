#include "format/locality_result.hpp"

#include <algorithm>
#include <limits>

namespace parperf::format {

DistanceRange reuse_bin_range(std::size_t bin) {
  if (bin == 0) return {0, 1};
  const std::uint64_t min = (std::uint64_t{1} << (bin - 1)) + 1;
  const std::uint64_t max = bin >= 64 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t{1} << bin;
  return {min, max};
}

LocalityHistograms& LocalityHistograms::operator+=(const LocalityHistograms& other) {
  load_accesses += other.load_accesses;
  store_accesses += other.store_accesses;
  load_words += other.load_words;
  store_words += other.store_words;
  word_accesses += other.word_accesses;
  if (strides.size() < other.strides.size()) strides.resize(other.strides.size());
  for (std::size_t i = 0; i < other.strides.size(); ++i) strides[i] += other.strides[i];
  for (std::size_t b = 0; b < kReuseBins; ++b) reuse[b] += other.reuse[b];
  cold += other.cold;
  return *this;
}

std::vector<std::uint32_t> functions_by_accesses(const LocalityReport& report) {
  std::vector<std::uint32_t> ids;
  ids.reserve(report.functions.size());
  for (const auto& [id, scores] : report.functions) ids.push_back(id);
  // The map iterates ids in ascending order and stable_sort keeps it among equal counts.
  std::stable_sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) {
    return report.functions.at(a).histograms.word_accesses > report.functions.at(b).histograms.word_accesses;
  });
  return ids;
}

}  // namespace parperf::format
