// Reading and writing event trace files (trace_records.hpp, trace_events.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "format/record_writer.hpp"
#include "format/trace_events.hpp"
#include "format/trace_records.hpp"

namespace parperf::format {

struct TraceBlock {
  TraceBlockRecord header;
  std::vector<TraceEvent> events;
  std::size_t offset = 0;  // of the block's section in the file
};

struct TraceFile {
  TraceProcessRecord process;
  std::optional<TraceClockRecord> clock;  // absent when the trace was cut short
  std::vector<TraceBlock> blocks;         // in file order; a thread's blocks by sequence
  // Where and why the trace ends early (the program was killed while its trace was written): the
  // blocks before it are complete and read. Empty for a trace that was closed.
  std::string cut_short;
};

// Decodes a whole trace. A file cut short is read up to its last complete section (`cut_short`
// says where); everything else that is wrong (not a trace, another major version, a checksum
// mismatch, a block whose events do not decode) throws FormatError naming the section and offset.
TraceFile decode_trace(std::span<const std::uint8_t> bytes);

// The same for a file; messages begin with its path. Only regular files are read.
TraceFile read_trace_file(const std::filesystem::path& path);

// The block's encoded events compressed with zstd; empty when compression does not make them
// smaller (the block is then written as it is).
std::vector<std::uint8_t> compress_trace_events(std::span<const std::uint8_t> raw);

// Appends one block section: `header` (its raw_bytes, encoded_bytes and compression must describe
// `encoded`) and the encoded events.
template <class Sink>
void write_trace_block(RecordWriter<Sink>& writer, const TraceBlockRecord& header,
                       std::span<const std::uint8_t> encoded) {
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::block));
  writer.record(header);
  writer.payload(encoded.data(), encoded.size());
  writer.end_section();
}

}  // namespace parperf::format
