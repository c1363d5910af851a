// Reading and writing event trace files (trace_records.hpp, trace_events.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "format/mapped_file.hpp"
#include "format/record_writer.hpp"
#include "format/trace_events.hpp"
#include "format/trace_records.hpp"
#include "format/trace_samples.hpp"

namespace parperf::format {

struct TraceBlock {
  TraceBlockRecord header;
  std::vector<TraceEvent> events;  // empty in an index (open_trace_index): events_of decodes them
  std::size_t offset = 0;          // of the block's section in the file
  std::size_t events_offset = 0;   // of its encoded events
};

struct TraceSampleBlock {
  TraceSampleBlockRecord header;
  std::vector<TraceSample> samples;  // empty in an index (open_trace_index): samples_of decodes them
  std::size_t offset = 0;            // of the block's section in the file
  std::size_t samples_offset = 0;    // of its encoded samples
};

struct TraceFile {
  TraceProcessRecord process;
  std::optional<TraceClockRecord> clock;        // absent when the trace was cut short
  std::vector<TraceBlock> blocks;               // in file order; a thread's blocks by sequence
  std::vector<TraceSampleBlock> sample_blocks;  // in file order, which is each thread's sample order
  // Where and why the trace ends early (the program was killed while its trace was written): the
  // blocks before it are complete and read. Empty for a trace that was closed.
  std::string cut_short;
  // An index's file, mapped: the blocks' events are decoded from it one block at a time.
  std::shared_ptr<const MappedFile> source;
};

// Decodes a whole trace (`events`: and every block's events; without, the blocks' records only,
// checked against their bytes and checksums). A file cut short is read up to its last complete section
// (`cut_short` says where); everything else that is wrong (not a trace, another major version, a checksum
// mismatch, a block whose events do not decode) throws FormatError naming the section and offset.
TraceFile decode_trace(std::span<const std::uint8_t> bytes, bool events = true);

// The same for a file; messages begin with its path. Only regular files are read.
TraceFile read_trace_file(const std::filesystem::path& path);

// The file's records without its events, which stay in the file (mapped) until events_of decodes
// them: memory for one block at a time, however long the trace. The file must not change while
// the index is used.
TraceFile open_trace_index(const std::filesystem::path& path);
// The same for a file's bytes received in memory (held by the index), named by `path`.
TraceFile open_trace_index(const std::filesystem::path& path, std::vector<std::uint8_t> bytes);

// A block's events: those decoded already, or decoded now from the index's file. Throws FormatError
// naming the file, the block's offset and what is wrong.
std::vector<TraceEvent> events_of(const TraceFile& trace, const TraceBlock& block);

// A sample block's samples: those decoded already, or decoded now from the index's file. Throws
// FormatError naming the file, the block's offset and what is wrong.
std::vector<TraceSample> samples_of(const TraceFile& trace, const TraceSampleBlock& block);

// A block's events one at a time: those decoded already, or decoded from the index's file as they
// are read, holding the block's bytes (a few an event) rather than its decoded events. Errors throw
// FormatError as events_of's. The trace must outlive the stream.
class BlockEvents {
 public:
  BlockEvents(const TraceFile& trace, const TraceBlock& block);
  BlockEvents(const BlockEvents&) = delete;  // its reader points into its bytes
  BlockEvents& operator=(const BlockEvents&) = delete;
  // The next event into `event`; false after the last.
  bool next(TraceEvent& event);

 private:
  const TraceBlock* block_;
  std::size_t decoded_ = 0;  // the next of the block's decoded events, when it has them
  std::vector<std::uint8_t> bytes_;
  std::optional<TraceEventReader> reader_;
  std::string context_;
};

// The block's encoded events compressed with zstd; empty when compression does not make them
// smaller (the block is then written as it is).
std::vector<std::uint8_t> compress_trace_events(std::span<const std::uint8_t> raw);

// Appends one section of `type` holding a block: its `header` record (whose raw_bytes, encoded_bytes
// and compression must describe `encoded`), then the encoded contents.
template <class Sink, class Record>
void write_stored_block(RecordWriter<Sink>& writer, TraceSection type, const Record& header,
                        std::span<const std::uint8_t> encoded) {
  writer.begin_section(static_cast<std::uint32_t>(type));
  writer.record(header);
  writer.payload(encoded.data(), encoded.size());
  writer.end_section();
}

// An event block section; a sample block section.
template <class Sink>
void write_trace_block(RecordWriter<Sink>& writer, const TraceBlockRecord& header,
                       std::span<const std::uint8_t> encoded) {
  write_stored_block(writer, TraceSection::block, header, encoded);
}
template <class Sink>
void write_trace_samples(RecordWriter<Sink>& writer, const TraceSampleBlockRecord& header,
                         std::span<const std::uint8_t> encoded) {
  write_stored_block(writer, TraceSection::samples, header, encoded);
}

// The process section, first in the file; the clock section, last.
template <class Sink>
void write_trace_process(RecordWriter<Sink>& writer, const TraceProcessRecord& process) {
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::process));
  writer.record(process);
  writer.end_section();
}
template <class Sink>
void write_trace_clock(RecordWriter<Sink>& writer, const TraceClockRecord& clock) {
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::clock));
  writer.record(clock);
  writer.end_section();
}

// A sample block section of decoded samples, stored uncompressed (`header`'s counts of bytes and its
// compression are set here; converters and tests).
template <class Sink>
void write_decoded_samples(RecordWriter<Sink>& writer, TraceSampleBlockRecord header,
                           std::span<const TraceSample> samples) {
  std::vector<std::uint8_t> encoded(samples.size() * kMaxSampleBytes);
  encoded.resize(encode_trace_samples(samples.data(), samples.size(), header.base_ticks, encoded.data()));
  header.compression = static_cast<std::uint32_t>(TraceCompression::none);
  header.raw_bytes = header.encoded_bytes = static_cast<std::uint32_t>(encoded.size());
  write_trace_samples(writer, header, encoded);
}

}  // namespace parperf::format
