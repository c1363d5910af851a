// Sampling in the collector (PARPERF_MEM_SAMPLE=R, set by `parperf locality --sample-rate R`): the
// hooks keep only the accesses to sampled blocks of 512 bytes (64 words), SHARDS spatial sampling
// at block granularity. Every access to a kept block is recorded, so reuse distances measured among
// the kept words, scaled by 1/R, estimate the true ones, and strides inside a block are intact
// (only the first access into a block finds no neighbour). The test costs one multiplication per
// access and keeps the other (1 - R) of them out of the buffers, the trace and the analysis.
#pragma once

#include <atomic>
#include <cstdint>

namespace parperf::memory {

inline constexpr std::uint32_t kSampleModulus = 1u << 24;
inline constexpr unsigned kSampleBlockShift = 9;  // 512-byte blocks

// kSampleModulus (keep everything) until configure_sampling() has read the setting; each thread's
// buffer keeps a copy (ThreadBuffer::sample_threshold).
extern std::atomic<std::uint32_t> g_sample_threshold;

// Whether sampling at `threshold` (below kSampleModulus) leaves out the block of `address`.
inline bool sampled_out(std::uintptr_t address, std::uint32_t threshold) noexcept {
  // Fibonacci hashing: the top 24 bits of block * 2^64/phi spread neighbouring blocks evenly.
  const std::uint64_t block = static_cast<std::uint64_t>(address) >> kSampleBlockShift;
  return static_cast<std::uint32_t>((block * 0x9e3779b97f4a7c15ull) >> 40) >= threshold;
}

// Burst sampling, for programs built by `parperf cc --sampled` (burst_sampling.cpp): every thread
// records bursts of g_burst_length consecutive accesses, separated by random gaps of g_mean_gap
// accesses on average. PARPERF_MEM_BURST (at least 1) and PARPERF_MEM_GAP (at least 2) set them.
inline constexpr std::uint32_t kDefaultBurstLength = 1u << 22;
inline constexpr std::uint32_t kDefaultMeanGap = 99u << 22;  // 1 % of the accesses
extern std::atomic<std::uint32_t> g_burst_length;
extern std::atomic<std::uint32_t> g_mean_gap;
// Set by the burst sampler's first thread, before its first record: the trace says it holds bursts.
extern std::atomic<bool> g_burst_sampling;

// Reads PARPERF_MEM_SAMPLE (a rate in (0, 1]), PARPERF_MEM_BURST and PARPERF_MEM_GAP (counts of
// accesses); a setting that is none of these is said on stderr and ignored.
void configure_sampling() noexcept;

}  // namespace parperf::memory
