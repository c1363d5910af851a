// The result of a locality analysis (DESIGN.md section 6) as `parperf locality` stores it in
// locality.json (locality_file.hpp) and the renderers take it: the engine's options and report
// (histograms, and the scores computed from them), plus what the engine does not know (function
// names, who captured the accesses, what was lost on the way). The locality engine
// (src/analysis/locality) produces these values; it names them in its own namespace.
//
// Multi-threaded convention: each thread's stream is analysed on its own (the spatial window and
// the reuse distances are within the thread). A function's figures are those of its accesses, with
// distances measured in its thread's whole stream; the program's and a function's figures combine
// the threads' histograms (sums of counts) and the scores are computed from the combined
// histograms. Footprints are not summed: they count distinct words over the whole set.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace parperf::format {

// The parameters of DESIGN.md section 6 (word size W, i_max, N) and of the SHARDS sampling. The last
// two are the engine's own and are not stored.
struct LocalityOptions {
  // Bytes per word; a power of two >= 2 (addresses are taken as address / word_bytes).
  std::uint32_t word_bytes = 8;
  // W: the spatial stride of a word access is measured against the thread's previous W word accesses.
  std::uint32_t window = 32;
  // i_max: strides 1..max_stride are counted by the spatial score. 32 = the window size, so that a
  // stream sweeping up to W interleaved arrays still has every stride it could see counted.
  std::uint32_t max_stride = 32;
  // log2 N of the temporal score: reuse distances beyond N = 2^log2_n count as no reuse.
  std::uint32_t log2_n = 20;
  // 1 = exact; below 1, SHARDS fixed-rate spatial sampling of words at this rate (e.g. 0.01).
  double sample_rate = 1.0;
  // Below 1: the input already holds only the accesses to words a capturer sampled at this rate
  // (libparperf-mem's PARPERF_MEM_SAMPLE). Nothing more is filtered for it, but distances, counts and
  // footprints are scaled by 1 / (sample_rate * presampled_rate).
  double presampled_rate = 1.0;
  // Above 0: the input holds bursts of burst_length consecutive accesses of each thread separated
  // by gaps of mean_gap accesses on average (`parperf cc --sampled`). The engine scores each burst
  // apart, after a warm-up of its first half (burst_warmup), and scales counts by the accesses made
  // over those counted.
  std::uint64_t burst_length = 0;
  std::uint64_t mean_gap = 0;
  // Smallest time capacity of the reuse-distance tree (it grows to twice the live words at each
  // compaction); tests set it small to exercise compaction.
  std::size_t min_tree_capacity = std::size_t{1} << 16;
  // Number of (access index, address) points kept for the scatter plot (reservoir sample).
  std::size_t scatter_points = 20000;
};

// Reuse-distance bins: bin 0 holds distances 0 and 1, bin b >= 1 holds (2^(b-1), 2^b]; 65 bins
// cover every 64-bit distance. Cold (first) accesses are counted apart, in `cold`.
inline constexpr std::size_t kReuseBins = 65;

// The distances of a reuse-distance bin: bin 0 holds 0 and 1, bin b >= 1 holds (2^(b-1), 2^b].
// Bin 64's bound 2^64 is one past any distance, so its max is 2^64 - 1.
struct DistanceRange {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};
DistanceRange reuse_bin_range(std::size_t bin);

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

// One point of the address-over-time scatter plot (not stored).
struct ScatterPoint {
  std::uint64_t access_index = 0;  // position of the access in the whole input (0-based)
  std::uint64_t address = 0;
  std::uint32_t function = 0;
  std::uint16_t thread = 0;
  bool store = false;
};

// What the bursts of a sampled run say about the scores' accuracy: the program's score is the
// word-weighted mean of the bursts' scores; its 95 % interval is the score +- half_width, from the
// standard error of that mean (1.96 standard errors). Unknown (negative) with fewer than 2 bursts.
struct BurstUncertainty {
  std::uint64_t bursts = 0;  // bursts scored (each past its warm-up)
  double spatial_half_width = -1;
  double temporal_half_width = -1;
};

// The warm-up of a burst: its first half, whose accesses fill the stride window and the reuse
// history but are not counted (their distances could reach before the burst).
inline std::uint64_t burst_warmup(std::uint64_t burst_length) { return burst_length / 2; }

// What the locality engine produces.
struct LocalityReport {
  LocalityOptions options;
  double effective_sample_rate = 1.0;  // the rate actually applied (threshold / 2^24), 1 if exact
  LocalityScores program;
  std::map<std::uint32_t, LocalityScores> functions;
  std::map<std::uint16_t, LocalityScores> threads;
  std::vector<ScatterPoint> scatter;  // a uniform sample of the accesses, ordered by access_index
  BurstUncertainty uncertainty;       // when options.burst_length > 0
};

// The ids of report.functions, most word accesses first; ties by id, so that output is reproducible
// and every listing (the file, the text, the pictures) orders them alike.
std::vector<std::uint32_t> functions_by_accesses(const LocalityReport& report);

// Where a function id of the report comes from. Every field is empty (line 0) when unknown.
struct LocalityFunction {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  std::string module;
};

struct LocalityResult {
  LocalityReport report;
  // Names of the ids in report.functions and report.scatter; ids without an entry are unknown.
  std::map<std::uint32_t, LocalityFunction> functions;
  std::string source;         // who captured: "parperf-mem", "lackey", "text"
  std::string command_line;   // the measured program, may be empty
  std::uint64_t dropped = 0;  // accesses the capturer could not record
  std::vector<std::string> warnings;
};

}  // namespace parperf::format
