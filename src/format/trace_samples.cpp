#include "format/trace_samples.hpp"

#include <string>

#include "format/profile_reader.hpp"  // FormatError

namespace parperf::format {
namespace {

class ColumnReader {
 public:
  explicit ColumnReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint64_t varint(std::uint32_t sample, const char* what) {
    std::uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (position_ == bytes_.size())
        fail(sample, std::string("its ") + what + " runs past the end of the block");
      const std::uint8_t b = bytes_[position_++];
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return value;
    }
    fail(sample, std::string("its ") + what + " is longer than 64 bits");
  }
  std::uint32_t varint32(std::uint32_t sample, const char* what) {
    const std::uint64_t v = varint(sample, what);
    if (v > 0xffffffffu) fail(sample, std::string(what) + " " + std::to_string(v) + " exceeds 32 bits");
    return static_cast<std::uint32_t>(v);
  }
  std::size_t remaining() const { return bytes_.size() - position_; }
  [[noreturn]] static void fail(std::uint32_t sample, const std::string& what) {
    throw FormatError("sample " + std::to_string(sample) + ": " + what);
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};

}  // namespace

std::vector<TraceSample> decode_trace_samples(std::span<const std::uint8_t> bytes, std::uint64_t base_ticks,
                                              std::uint32_t count) {
  // Every sample takes at least three bytes (one a column): a count the bytes cannot hold is a lie,
  // refused before anything is allocated for it.
  if (count > bytes.size() / 3)
    throw FormatError(std::to_string(count) + " samples cannot fit in " + std::to_string(bytes.size()) +
                      " bytes");
  std::vector<TraceSample> samples(count);
  ColumnReader in(bytes);
  std::uint64_t ticks = base_ticks;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t delta = in.varint(i, "time");
    if (delta > ~ticks) ColumnReader::fail(i, "its time overflows the clock");
    ticks += delta;
    samples[i].ticks = ticks;
  }
  for (std::uint32_t i = 0; i < count; ++i) samples[i].node = in.varint32(i, "node");
  for (std::uint32_t i = 0; i < count; ++i) {
    samples[i].weight = in.varint32(i, "weight");
    if (samples[i].weight == 0) ColumnReader::fail(i, "weight 0 (a sample stands for at least one period)");
  }
  if (in.remaining() != 0)
    throw FormatError(std::to_string(in.remaining()) + " bytes after the block's " + std::to_string(count) +
                      " samples");
  return samples;
}

}  // namespace parperf::format
