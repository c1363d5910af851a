// The parameters of DESIGN.md section 6 (word size W, i_max, N) and of the SHARDS sampling.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parperf::locality {

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
  // Smallest time capacity of the reuse-distance tree (it grows to twice the live words at each
  // compaction); tests set it small to exercise compaction.
  std::size_t min_tree_capacity = std::size_t{1} << 16;
  // Number of (access index, address) points kept for the scatter plot (reservoir sample).
  std::size_t scatter_points = 20000;
};

}  // namespace parperf::locality
