// What the locality engine produces: histograms (sums of counts, so that threads and functions
// combine by addition) and the scores computed from them (locality_scores.hpp recomputes them).
//
// Multi-threaded convention: each thread's stream is analysed on its own (the spatial window and
// the reuse distances are within the thread). A function's figures are those of its accesses, with
// distances measured in its thread's whole stream; the program's and a function's figures combine
// the threads' histograms (sums of counts) and the scores are computed from the combined
// histograms. Footprints are not summed: they count distinct words over the whole set.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "analysis/locality/locality_options.hpp"

namespace parperf::locality {

// Reuse-distance bins: bin 0 holds distances 0 and 1, bin b >= 1 holds (2^(b-1), 2^b]; 65 bins
// cover every 64-bit distance. Cold (first) accesses are counted apart, in `cold`.
inline constexpr std::size_t kReuseBins = 65;

struct LocalityHistograms {
  // Counts of accesses (a 16-byte load is one load access and two load words).
  std::uint64_t load_accesses = 0;
  std::uint64_t store_accesses = 0;
  std::uint64_t load_words = 0;
  std::uint64_t store_words = 0;
  std::uint64_t word_accesses = 0;    // load_words + store_words: the denominator of both scores
  std::uint64_t footprint_words = 0;  // distinct words (not additive)
  // strides[0]: same-word re-accesses (not a stride); strides[i], 1 <= i <= max_stride: accesses of
  // stride i; strides[max_stride + 1]: longer strides and accesses with nothing before them in the
  // window. The entries sum to word_accesses.
  std::vector<std::uint64_t> strides;
  std::array<std::uint64_t, kReuseBins> reuse{};  // see kReuseBins
  std::uint64_t cold = 0;                         // first accesses: infinite reuse distance

  // Adds every count but the footprint, which is not additive.
  LocalityHistograms& operator+=(const LocalityHistograms& other);
};

struct LocalityScores {
  double spatial = 0;   // SL in [0, 1]
  double temporal = 0;  // TL in [0, 1]
  LocalityHistograms histograms;
};

// One point of the address-over-time scatter plot.
struct ScatterPoint {
  std::uint64_t access_index = 0;  // position of the access in the whole input (0-based)
  std::uint64_t address = 0;
  std::uint32_t function = 0;
  std::uint16_t thread = 0;
  bool store = false;
};

struct LocalityReport {
  LocalityOptions options;
  double effective_sample_rate = 1.0;  // the rate actually applied (threshold / 2^24), 1 if exact
  LocalityScores program;
  std::map<std::uint32_t, LocalityScores> functions;
  std::map<std::uint16_t, LocalityScores> threads;
  std::vector<ScatterPoint> scatter;  // a uniform sample of the accesses, ordered by access_index
};

}  // namespace parperf::locality
