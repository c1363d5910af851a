#include "format/trace_file.hpp"

#include <zstd.h>

#include <limits>
#include <string>

#include "format/byte_reader.hpp"
#include "format/regular_file.hpp"
#include "format/section_cursor.hpp"

namespace parperf::format {
namespace {

std::string where(const Section& s) {
  return "section " + std::to_string(s.number) + " (offset " + std::to_string(s.offset) + ")";
}

// A block's event (or sample) bytes from its stored bytes (decompressed when stored compressed),
// checked against its record.
template <class Record>
std::vector<std::uint8_t> raw_events(const Record& h, std::span<const std::uint8_t> encoded,
                                     const std::string& context) {
  if (h.compression != static_cast<std::uint32_t>(TraceCompression::zstd))
    return std::vector<std::uint8_t>(encoded.begin(), encoded.end());
  // One context per reading thread, kept: creating one for each block costs more than small blocks'
  // decompression.
  struct Context {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    ~Context() { ZSTD_freeDCtx(dctx); }
  };
  thread_local Context decompressor;
  std::vector<std::uint8_t> raw(h.raw_bytes);
  const std::size_t got =
      ZSTD_decompressDCtx(decompressor.dctx, raw.data(), raw.size(), encoded.data(), encoded.size());
  if (ZSTD_isError(got) || got != h.raw_bytes)
    throw FormatError("corrupt: " + context + ": its contents do not decompress to " +
                      std::to_string(h.raw_bytes) + " bytes" +
                      (ZSTD_isError(got) ? std::string(" (") + ZSTD_getErrorName(got) + ")" : std::string()));
  return raw;
}

// The events of a block from its stored bytes.
std::vector<TraceEvent> decode_events(const TraceBlockRecord& h, std::span<const std::uint8_t> encoded,
                                      const std::string& context) {
  const std::vector<std::uint8_t> raw = raw_events(h, encoded, context);
  try {
    return decode_trace_events(raw, h.base_ticks, h.event_count);
  } catch (const FormatError& e) {
    throw FormatError("corrupt: " + context + ": " + e.what());
  }
}

// Where a block of an index lies in its file, checked against the file's size.
std::span<const std::uint8_t> stored_bytes(const TraceFile& trace, std::size_t offset, std::uint32_t size,
                                           const std::string& context) {
  const std::span<const std::uint8_t> file = trace.source->bytes();
  if (offset + size > file.size())
    throw FormatError("corrupt: " + context + ": it lies past the end of the file");
  return file.subspan(offset, size);
}
std::span<const std::uint8_t> stored_events(const TraceFile& trace, const TraceBlock& block,
                                            const std::string& context) {
  return stored_bytes(trace, block.events_offset, block.header.encoded_bytes, context);
}

std::string block_context(const TraceFile& trace, std::size_t offset) {
  return trace.source->path().string() + ": the block at offset " + std::to_string(offset);
}

// A sample block's samples from its stored bytes.
std::vector<TraceSample> decode_samples(const TraceSampleBlockRecord& h,
                                        std::span<const std::uint8_t> encoded, const std::string& context) {
  const std::vector<std::uint8_t> raw = raw_events(h, encoded, context);
  try {
    return decode_trace_samples(raw, h.base_ticks, h.sample_count);
  } catch (const FormatError& e) {
    throw FormatError("corrupt: " + context + ": " + e.what());
  }
}

// The checks every stored block passes before its contents are trusted: its record's sizes against
// the section's bytes, a known compression.
template <class Record>
std::span<const std::uint8_t> checked_contents(ByteReader& in, const Record& h, const char* what) {
  if (h.encoded_bytes != in.remaining())
    throw FormatError("corrupt: " + in.context() + ": " + std::to_string(in.remaining()) + " bytes of " +
                      what + ", the block record says " + std::to_string(h.encoded_bytes));
  if (h.raw_bytes > kMaxTraceBlockBytes)
    throw FormatError("corrupt: " + in.context() + ": " + std::to_string(h.raw_bytes) + " bytes of " + what +
                      ", more than a block may hold");
  const std::span<const std::uint8_t> encoded = in.take(h.encoded_bytes, what);
  if (h.compression != static_cast<std::uint32_t>(TraceCompression::zstd) &&
      h.compression != static_cast<std::uint32_t>(TraceCompression::none))
    throw FormatError("corrupt: " + in.context() + ": unknown compression " + std::to_string(h.compression));
  if (h.compression == static_cast<std::uint32_t>(TraceCompression::none) && h.raw_bytes != h.encoded_bytes)
    throw FormatError("corrupt: " + in.context() + ": uncompressed, yet " + std::to_string(h.raw_bytes) +
                      " raw bytes against " + std::to_string(h.encoded_bytes) + " stored");
  return encoded;
}

TraceBlock decode_block(const Section& s, bool swap, std::span<const std::uint8_t> file, bool with_events) {
  ByteReader in(s.payload, swap, where(s) + " (block)");
  TraceBlock block;
  block.offset = s.offset;
  block.header = in.record<TraceBlockRecord>("block record");
  const TraceBlockRecord& h = block.header;
  const std::span<const std::uint8_t> encoded = checked_contents(in, h, "events");
  block.events_offset = static_cast<std::size_t>(encoded.data() - file.data());
  if (with_events) block.events = decode_events(h, encoded, in.context());
  return block;
}

TraceSampleBlock decode_sample_block(const Section& s, bool swap, std::span<const std::uint8_t> file,
                                     bool with_samples) {
  ByteReader in(s.payload, swap, where(s) + " (sample block)");
  TraceSampleBlock block;
  block.offset = s.offset;
  block.header = in.record<TraceSampleBlockRecord>("sample block record");
  const std::span<const std::uint8_t> encoded = checked_contents(in, block.header, "samples");
  block.samples_offset = static_cast<std::size_t>(encoded.data() - file.data());
  if (with_samples) block.samples = decode_samples(block.header, encoded, in.context());
  return block;
}

}  // namespace

TraceFile decode_trace(std::span<const std::uint8_t> bytes, bool events) {
  const ContainerKind kind{"event trace", "trace format", kTraceMagic, kTraceVersionMajor};
  const ContainerHeader container = read_container_header(bytes, kind);
  const bool swap = container.swap;

  TraceFile trace;
  bool have_process = false;
  SectionCursor sections(bytes, swap, container.sections_start, kind, kMaxTraceSectionBytes);
  while (const std::optional<Section> s = sections.next()) {
    ByteReader in(s->payload, swap, where(*s));
    switch (static_cast<TraceSection>(s->type)) {
      case TraceSection::process:
        if (have_process) throw FormatError("corrupt: a second process record in " + where(*s));
        trace.process = in.record<TraceProcessRecord>("process record");
        // A rank is an MPI rank or OpenSHMEM PE number, an int (the analyses keep it in 32 bits).
        if (trace.process.rank < 0 || trace.process.rank > std::numeric_limits<std::int32_t>::max())
          throw FormatError("corrupt: rank " + std::to_string(trace.process.rank) +
                            " in the process record in " + where(*s));
        have_process = true;
        break;
      case TraceSection::block:
        if (!have_process) throw FormatError("corrupt: a block before the process record in " + where(*s));
        trace.blocks.push_back(decode_block(*s, swap, bytes, events));
        continue;
      case TraceSection::samples:
        if (!have_process)
          throw FormatError("corrupt: a sample block before the process record in " + where(*s));
        trace.sample_blocks.push_back(decode_sample_block(*s, swap, bytes, events));
        continue;
      case TraceSection::clock:
        trace.clock = in.record<TraceClockRecord>("clock record");
        break;
      default:
        in.take(in.remaining(), "unknown section");  // a later minor version's section: skip
        break;
    }
    if (in.remaining() != 0)
      throw FormatError("corrupt: " + where(*s) + " has " + std::to_string(in.remaining()) +
                        " unparsed bytes");
  }
  if (!have_process) throw FormatError("truncated: the trace ends before its process record");
  if (const auto& cut = sections.cut_short())
    trace.cut_short = "truncated: " + cut->what + "; " + std::to_string(trace.blocks.size()) +
                      " complete blocks were read (the program may have been killed while it traced)";
  return trace;
}

TraceFile read_trace_file(const std::filesystem::path& path) {
  // Mapped, not read: a section is checked against the format's limits before its pages are touched.
  const MappedFile file(path);
  try {
    return decode_trace(file.bytes());
  } catch (const FormatError& e) {
    throw FormatError(path.string() + ": " + e.what());
  }
}

namespace {
TraceFile index_of(const std::filesystem::path& path, std::shared_ptr<const MappedFile> source) {
  try {
    TraceFile trace = decode_trace(source->bytes(), false);
    trace.source = std::move(source);
    return trace;
  } catch (const FormatError& e) {
    throw FormatError(path.string() + ": " + e.what());
  }
}
}  // namespace

TraceFile open_trace_index(const std::filesystem::path& path) {
  return index_of(path, std::make_shared<const MappedFile>(path));
}

TraceFile open_trace_index(const std::filesystem::path& path, std::vector<std::uint8_t> bytes) {
  return index_of(path, std::make_shared<const MappedFile>(path, std::move(bytes)));
}

std::vector<TraceEvent> events_of(const TraceFile& trace, const TraceBlock& block) {
  if (!block.events.empty() || block.header.event_count == 0 || !trace.source) return block.events;
  const std::string context = block_context(trace, block.offset);
  return decode_events(block.header, stored_events(trace, block, context), context);
}

std::vector<TraceSample> samples_of(const TraceFile& trace, const TraceSampleBlock& block) {
  if (!block.samples.empty() || block.header.sample_count == 0 || !trace.source) return block.samples;
  const std::string context = block_context(trace, block.offset);
  return decode_samples(
      block.header, stored_bytes(trace, block.samples_offset, block.header.encoded_bytes, context), context);
}

BlockEvents::BlockEvents(const TraceFile& trace, const TraceBlock& block) : block_(&block) {
  if (!block.events.empty() || block.header.event_count == 0 || !trace.source) return;
  context_ = block_context(trace, block.offset);
  bytes_ = raw_events(block.header, stored_events(trace, block, context_), context_);
  try {
    reader_.emplace(bytes_, block.header.base_ticks, block.header.event_count);
  } catch (const FormatError& e) {
    throw FormatError("corrupt: " + context_ + ": " + e.what());
  }
}

bool BlockEvents::next(TraceEvent& event) {
  if (!reader_) {
    if (decoded_ == block_->events.size()) return false;
    event = block_->events[decoded_++];
    return true;
  }
  try {
    return reader_->next(event);
  } catch (const FormatError& e) {
    throw FormatError("corrupt: " + context_ + ": " + e.what());
  }
}

std::vector<std::uint8_t> compress_trace_events(std::span<const std::uint8_t> raw) {
  std::vector<std::uint8_t> out(ZSTD_compressBound(raw.size()));
  // Level 1: the writer compresses on the program's machine while it runs; speed matters more than
  // the last bytes. One context per thread, kept, as the runtime's writer keeps its own.
  struct Context {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(cctx); }
  };
  thread_local Context context;
  const std::size_t size = ZSTD_compressCCtx(context.cctx, out.data(), out.size(), raw.data(), raw.size(), 1);
  if (ZSTD_isError(size) || size >= raw.size()) return {};
  out.resize(size);
  return out;
}

}  // namespace parperf::format
