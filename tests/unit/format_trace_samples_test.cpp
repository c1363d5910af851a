// The call-path samples of the event trace (format/trace_samples.hpp, sample blocks of
// trace_file.hpp, since trace format 2.1): they survive encoding, compression, writing and reading,
// eagerly and through an index; a trace without them (2.0) reads as before; damaged or truncated
// sample blocks are refused naming the file, the block and the sample, never trusted.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/memory_sink.hpp"
#include "format/profile_reader.hpp"
#include "format/trace_file.hpp"

namespace parperf::format {
namespace {

constexpr std::uint64_t kBase = 5'000'000'000ull;

// A thread's samples at about 1 kHz of a 2.4 GHz clock: two hot leaves, now and then a weight of 4
// (a CPU-time timer checked at a 250 Hz scheduler tick), and the widest values once.
std::vector<TraceSample> thread_samples(std::uint32_t count) {
  std::vector<TraceSample> samples;
  std::uint64_t t = kBase + 1000;
  for (std::uint32_t i = 0; i < count; ++i) {
    t += 2'400'000 + (i * 7919) % 5000;
    samples.push_back({t, i % 4 == 3 ? 17u : 5u, i % 10 == 0 ? 4u : 1u});
  }
  samples.push_back({t + 1, 0xffffffffu, 0xffffffffu});
  return samples;
}

std::vector<std::uint8_t> encode(const std::vector<TraceSample>& samples, std::uint64_t base) {
  std::vector<std::uint8_t> out(samples.size() * kMaxSampleBytes);
  out.resize(encode_trace_samples(samples.data(), samples.size(), base, out.data()));
  return out;
}

void write_samples(RecordWriter<MemorySink>& writer, std::uint32_t thread,
                   const std::vector<TraceSample>& samples, bool compressed, std::uint64_t lost) {
  const std::uint64_t base = samples.empty() ? 0 : samples.front().ticks;
  const std::vector<std::uint8_t> raw = encode(samples, base);
  TraceSampleBlockRecord block;
  block.thread = thread;
  block.base_ticks = base;
  block.sample_count = static_cast<std::uint32_t>(samples.size());
  block.raw_bytes = static_cast<std::uint32_t>(raw.size());
  block.lost = lost;
  std::vector<std::uint8_t> stored = raw;
  if (compressed) {
    stored = compress_trace_events(raw);
    EXPECT_FALSE(stored.empty()) << "a thread's repeating leaves and weights compress";
    block.compression = static_cast<std::uint32_t>(TraceCompression::zstd);
  }
  block.encoded_bytes = static_cast<std::uint32_t>(stored.size());
  write_trace_samples(writer, block, stored);
}

// A trace with one event block and, per thread of two, a sample block stored as it is, then one
// compressed; thread 1 lost 3 samples; the clock last.
std::vector<std::uint8_t> sampled_trace(const std::vector<TraceSample>& samples, std::uint16_t minor = 1) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header(file_header_of(kTraceMagic, kTraceVersionMajor, minor));
  TraceProcessRecord process;
  process.rank = 0;
  process.origin_ticks = kBase;
  process.ticks_per_second = 2'400'000'000ull;
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::process));
  writer.record(process);
  writer.end_section();
  std::vector<std::uint8_t> events(1024);
  TraceBlockEncoder encoder(events.data(), events.size(), kBase);
  EXPECT_TRUE(encoder.enter(kBase + 10, 0, 0));
  const std::vector<std::uint8_t> raw = encoded_block(events.data(), events.size(), encoder);
  TraceBlockRecord block;
  block.base_ticks = kBase;
  block.event_count = 1;
  block.raw_bytes = block.encoded_bytes = static_cast<std::uint32_t>(raw.size());
  write_trace_block(writer, block, raw);
  if (!samples.empty())
    for (std::uint32_t thread = 0; thread < 2; ++thread)
      for (const bool compressed : {false, true})
        write_samples(writer, thread, samples, compressed, thread * 3);
  TraceClockRecord clock;
  clock.ticks_per_second = 2'400'000'000ull;
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::clock));
  writer.record(clock);
  writer.end_section();
  writer.finish();
  return sink.bytes();
}

std::filesystem::path write_file(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("parperf-" + name + "-" + std::to_string(getpid()) + ".ppt");
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(TraceSamples, EverySampleSurvivesEncodingCompressionWritingAndReading) {
  const std::vector<TraceSample> samples = thread_samples(2000);
  const TraceFile trace = decode_trace(sampled_trace(samples));
  ASSERT_EQ(trace.sample_blocks.size(), 4u) << "two sample blocks for each of two threads";
  for (const TraceSampleBlock& block : trace.sample_blocks) {
    EXPECT_EQ(block.samples, samples)
        << "thread " << block.header.thread << ", compression " << block.header.compression;
    EXPECT_EQ(block.header.lost, block.header.thread * 3u) << "the lost count is kept as written";
  }
  EXPECT_EQ(trace.blocks.size(), 1u) << "the event blocks are read beside the samples";
}

TEST(TraceSamples, AThreadsSamplesTakeAFewBytesEachCompressed) {
  const std::vector<TraceSample> samples = thread_samples(4000);
  const std::vector<std::uint8_t> raw = encode(samples, samples.front().ticks);
  const std::vector<std::uint8_t> compressed = compress_trace_events(raw);
  const double per_sample = static_cast<double>(compressed.size()) / static_cast<double>(samples.size());
  EXPECT_LT(per_sample, 4.0) << "a sample's time, node and weight compress to a few bytes (" << per_sample
                             << " a sample; 16 in memory)";
}

TEST(TraceSamples, AnIndexDecodesTheSamplesOfOneBlockWhenAsked) {
  const std::vector<TraceSample> samples = thread_samples(500);
  const std::filesystem::path path = write_file(sampled_trace(samples), "samples-index");
  const TraceFile index = open_trace_index(path);
  ASSERT_EQ(index.sample_blocks.size(), 4u);
  for (const TraceSampleBlock& block : index.sample_blocks) {
    EXPECT_TRUE(block.samples.empty()) << "an index holds no samples";
    EXPECT_EQ(samples_of(index, block), samples);
  }
  // A record that claims more samples than its bytes hold, under a checksum that matches (a writer's
  // bug, not damage): refused when read, naming the file, the block and what is wrong.
  TraceSampleBlock wrong = index.sample_blocks[0];
  wrong.header.sample_count += 1;
  try {
    samples_of(index, wrong);
    FAIL() << "a sample block claiming more samples than it holds was decoded";
  } catch (const FormatError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path.string() + ": the block at offset " + std::to_string(wrong.offset)),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("runs past the end of the block"), std::string::npos) << what;
  }
  std::filesystem::remove(path);
}

TEST(TraceSamples, ATraceWithoutSamplesReadsAsBefore) {
  const TraceFile older = decode_trace(sampled_trace({}, 0));
  EXPECT_TRUE(older.sample_blocks.empty()) << "a 2.0 trace has no sample blocks";
  EXPECT_EQ(older.blocks.size(), 1u);
  EXPECT_TRUE(older.cut_short.empty());
}

TEST(TraceSamples, SamplesThatDoNotDecodeAreRefusedNamingTheSample) {
  const std::vector<TraceSample> samples = {{kBase + 10, 1, 1}, {kBase + 20, 2, 1}};
  std::vector<std::uint8_t> raw = encode(samples, kBase);  // times 10, 10; nodes 1, 2; weights 1, 1
  ASSERT_EQ(raw.size(), 6u);
  raw[5] = 0;
  try {
    decode_trace_samples(raw, kBase, 2);
    FAIL() << "a sample of weight 0 was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "sample 1: weight 0 (a sample stands for at least one period)");
  }
  raw[5] = 0x81;  // a varint that goes on past the block
  try {
    decode_trace_samples(raw, kBase, 2);
    FAIL() << "a weight running past the block was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "sample 1: its weight runs past the end of the block");
  }
  const std::vector<std::uint8_t> big = {0x80, 0x80, 0x80, 0x80, 0x10, 1, 1};  // node 2^32
  try {
    decode_trace_samples(std::vector<std::uint8_t>{1, 0x80, 0x80, 0x80, 0x80, 0x10, 1}, kBase, 1);
    FAIL() << "a node past 32 bits was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "sample 0: node 4294967296 exceeds 32 bits");
  }
  EXPECT_THROW(decode_trace_samples(big, ~0ull - 5, 1), FormatError) << "a time past the clock's end";
  std::vector<std::uint8_t> extra = encode(samples, kBase);
  extra.push_back(0);
  try {
    decode_trace_samples(extra, kBase, 2);
    FAIL() << "bytes after the samples were accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "1 bytes after the block's 2 samples");
  }
  EXPECT_THROW(decode_trace_samples(encode(samples, kBase), kBase, 3), FormatError)
      << "more samples claimed than the bytes can hold";
}

TEST(TraceSamples, DamageToASampleBlockIsNamedWithItsSectionAndOffset) {
  std::vector<std::uint8_t> bytes = sampled_trace(thread_samples(300));
  const TraceFile trace = decode_trace(bytes);
  const std::size_t at = trace.sample_blocks[1].offset;
  bytes[at + 60] ^= 0x04;  // inside the compressed samples of thread 0: the fourth section
  try {
    decode_trace(bytes);
    FAIL() << "a flipped bit in a sample block was accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "corrupt: checksum mismatch in section 4 (offset " + std::to_string(at) + ")");
  }
  // Read from a file, the message names it first.
  const std::filesystem::path path = write_file(bytes, "samples-damaged");
  try {
    read_trace_file(path);
    FAIL() << "a damaged trace file was read";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": corrupt: checksum mismatch", 0), 0u) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(TraceSamples, ATraceCutInsideASampleBlockIsReadUpToTheBlockBefore) {
  const std::vector<std::uint8_t> whole = sampled_trace(thread_samples(300));
  const TraceFile complete = decode_trace(whole);
  const std::size_t cut = complete.sample_blocks[2].offset + 50;
  const TraceFile trace = decode_trace(std::span(whole.data(), cut));
  EXPECT_EQ(trace.sample_blocks.size(), 2u);
  EXPECT_NE(trace.cut_short.find("the file ends inside section 5 (offset " +
                                 std::to_string(complete.sample_blocks[2].offset) + ")"),
            std::string::npos)
      << trace.cut_short;
}

// Every cut and every flipped byte of a sampled trace is read as cut short, refused with a
// FormatError, or (a flip the checksums cannot see: the unchecked header bytes) read: never a crash,
// never another exception.
TEST(TraceSamples, EveryTruncationAndByteFlipIsReadOrRefusedCleanly) {
  const std::vector<std::uint8_t> whole = sampled_trace(thread_samples(40));
  for (std::size_t size = 0; size < whole.size(); ++size) {
    try {
      const TraceFile t = decode_trace(std::span(whole.data(), size));
      EXPECT_FALSE(t.cut_short.empty()) << "a trace cut at " << size << " bytes was read as whole";
    } catch (const FormatError&) {
    }
  }
  for (std::size_t at = 0; at < whole.size(); ++at) {
    std::vector<std::uint8_t> bytes = whole;
    bytes[at] ^= 0xff;
    try {
      decode_trace(bytes);
    } catch (const FormatError&) {
    }
  }
}

}  // namespace
}  // namespace parperf::format
