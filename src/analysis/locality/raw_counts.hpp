// The counts of one thread or one function as the engine's hot path keeps them: every word access
// is four increments at computed indices, with no branch on the access's kind (load or store, cold
// or not: in a real stream those alternate unpredictably). finish() turns them into the report's
// LocalityHistograms.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "analysis/locality/locality_report.hpp"

namespace parperf::locality {

struct RawCounts {
  static constexpr std::size_t kColdBin = kReuseBins;  // cold accesses: one more reuse bin

  explicit RawCounts(std::uint32_t max_stride) : strides(std::size_t{max_stride} + 2, 0) {}

  void record(std::size_t stride_slot, std::size_t reuse_slot, bool store, bool first_word) {
    ++strides[stride_slot];
    ++reuse[reuse_slot];
    ++words[store];
    accesses[store] += first_word ? 1 : 0;
  }

  LocalityHistograms histograms() const {
    LocalityHistograms result;
    result.load_accesses = accesses[0];
    result.store_accesses = accesses[1];
    result.load_words = words[0];
    result.store_words = words[1];
    result.word_accesses = words[0] + words[1];
    result.strides = strides;
    for (std::size_t b = 0; b < kReuseBins; ++b) result.reuse[b] = reuse[b];
    result.cold = reuse[kColdBin];
    return result;
  }

  std::vector<std::uint64_t> strides;  // LocalityHistograms::strides
  std::array<std::uint64_t, kReuseBins + 1> reuse{};
  std::array<std::uint64_t, 2> words{};     // indexed by store
  std::array<std::uint64_t, 2> accesses{};  // indexed by store: accesses counted at their first word
};

}  // namespace parperf::locality
