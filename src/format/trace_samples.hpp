// The call-path samples of one thread inside a trace's sample block (trace_records.hpp,
// TraceSampleBlockRecord), stored as three columns of unsigned LEB128 varints, one after the other:
//
//   times    each sample's ticks since the previous sample of the block (the first: since the
//            block's base_ticks);
//   nodes    the index, among the thread's CallPathNodeRecords of the profile the same process
//            wrote, of the node its path ended at (the leaf: the interrupted instruction);
//   weights  the timer periods the sample stands for (1, or more when the kernel delivered one
//            signal for several expired periods).
//
// Why columns, as the events (trace_events.hpp): the nodes repeat with the program's loops and the
// weights are nearly all 1, so apart they compress to a few bits a sample, while the time deltas,
// near the sampling period, stay as short varints the entropy coder takes.
//
// The encoder is header-only and allocation-free (the runtime's trace writer uses it); the decoder
// (trace_samples.cpp) checks every number against the bytes and throws FormatError naming the sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace parperf::format {

struct TraceSample {
  std::uint64_t ticks = 0;  // on the process's clock (TraceProcessRecord)
  std::uint32_t node = 0;   // the thread's call-path node (the profile's `call_paths` section)
  std::uint32_t weight = 1;
  bool operator==(const TraceSample&) const = default;
};

// The most bytes one sample takes: a 64-bit delta and two 32-bit numbers as varints.
inline constexpr std::size_t kMaxSampleBytes = 10 + 5 + 5;

namespace sample_columns {
inline std::uint8_t* put(std::uint8_t* out, std::uint64_t v) noexcept {
  while (v >= 0x80) {
    *out++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<std::uint8_t>(v);
  return out;
}
}  // namespace sample_columns

// Encodes `count` samples into `out` (at least count * kMaxSampleBytes bytes); returns the size.
// Times that go back (they cannot on one thread's clock) are stored as a delta of 0.
inline std::size_t encode_trace_samples(const TraceSample* samples, std::size_t count,
                                        std::uint64_t base_ticks, std::uint8_t* out) noexcept {
  std::uint8_t* p = out;
  std::uint64_t previous = base_ticks;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t t = samples[i].ticks;
    p = sample_columns::put(p, t > previous ? t - previous : 0);
    previous = t > previous ? t : previous;
  }
  for (std::size_t i = 0; i < count; ++i) p = sample_columns::put(p, samples[i].node);
  for (std::size_t i = 0; i < count; ++i) p = sample_columns::put(p, samples[i].weight);
  return static_cast<std::size_t>(p - out);
}

// The `count` samples of a block's bytes (decompressed). Throws FormatError: "sample 12: its node
// runs past the end of the block", "sample 3: weight 0", "4 bytes after the block's 10 samples".
std::vector<TraceSample> decode_trace_samples(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                              std::uint32_t count);

}  // namespace parperf::format
