#include "analysis/trace/operations_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <span>

#include "format/memory_sink.hpp"
#include "format/profile_reader.hpp"
#include "format/record_writer.hpp"

namespace parperf::analysis {
namespace {

constexpr std::size_t kBlockBytes = 1 << 20;

// Encodes one thread's operations into blocks and writes each when it is full.
class ThreadBlocks {
 public:
  ThreadBlocks(format::RecordWriter<format::MemorySink>& writer, std::uint32_t thread)
      : writer_(writer), thread_(thread), buffer_(kBlockBytes) {}

  void add(const format::TraceEvent& e) {
    if (!open_) start(e.ticks);
    if (!encoder_.append(e)) {
      flush();
      start(e.ticks);
      encoder_.append(e);
    }
  }

  void flush() {
    if (!open_ || encoder_.event_count() == 0) return;
    const std::vector<std::uint8_t> raw = format::encoded_block(buffer_.data(), buffer_.size(), encoder_);
    const std::vector<std::uint8_t> compressed = format::compress_trace_events(raw);
    format::TraceBlockRecord header;
    header.thread = thread_;
    header.compression = static_cast<std::uint32_t>(compressed.empty() ? format::TraceCompression::none
                                                                       : format::TraceCompression::zstd);
    header.sequence = sequence_++;
    header.base_ticks = base_;
    header.event_count = encoder_.event_count();
    header.raw_bytes = static_cast<std::uint32_t>(raw.size());
    const std::span<const std::uint8_t> stored = compressed.empty() ? std::span(raw) : std::span(compressed);
    header.encoded_bytes = static_cast<std::uint32_t>(stored.size());
    format::write_trace_block(writer_, header, stored);
    open_ = false;
  }

 private:
  void start(std::uint64_t base) {
    base_ = base;
    encoder_ = format::TraceBlockEncoder(buffer_.data(), buffer_.size(), base);
    open_ = true;
  }

  format::RecordWriter<format::MemorySink>& writer_;
  std::uint32_t thread_;
  std::vector<std::uint8_t> buffer_;
  format::TraceBlockEncoder encoder_{nullptr, 0, 0};
  bool open_ = false;
  std::uint64_t base_ = 0;
  std::uint64_t sequence_ = 0;
};

// A sample block as stored: the file's bytes when the trace is an index (copied, not decoded: the
// process that analyses decodes them as it would the file), else its decoded samples encoded again.
void copy_sample_block(format::RecordWriter<format::MemorySink>& writer, const format::TraceFile& trace,
                       const format::TraceSampleBlock& block) {
  if (trace.source && block.samples.empty()) {
    const std::span<const std::uint8_t> file = trace.source->bytes();
    if (block.samples_offset > file.size() || block.header.encoded_bytes > file.size() - block.samples_offset)
      throw format::FormatError(
          fmt::format("corrupt: {}: the sample block at offset {} lies past the end of the file",
                      trace.source->path().string(), block.offset));
    format::write_trace_samples(writer, block.header,
                                file.subspan(block.samples_offset, block.header.encoded_bytes));
    return;
  }
  format::write_decoded_samples(writer, block.header, block.samples);
}

}  // namespace

std::vector<std::uint8_t> operations_trace(const format::TraceFile& trace) {
  format::MemorySink sink;
  format::RecordWriter writer(sink);
  writer.file_header(format::trace_header());
  format::write_trace_process(writer, trace.process);
  std::map<std::uint32_t, std::vector<const format::TraceBlock*>> by_thread;
  for (const format::TraceBlock& block : trace.blocks) by_thread[block.header.thread].push_back(&block);
  for (auto& [thread, blocks] : by_thread) {
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const format::TraceBlock* a, const format::TraceBlock* b) {
                       return a->header.sequence < b->header.sequence;
                     });
    ThreadBlocks out(writer, thread);
    for (const format::TraceBlock* block : blocks)
      for (const format::TraceEvent& e : format::events_of(trace, *block))
        if (e.kind == format::TraceEventKind::operation || e.kind == format::TraceEventKind::enter ||
            e.kind == format::TraceEventKind::leave || e.kind == format::TraceEventKind::recording_off ||
            e.kind == format::TraceEventKind::recording_on)
          out.add(e);
    out.flush();
  }
  for (const format::TraceSampleBlock& block : trace.sample_blocks) copy_sample_block(writer, trace, block);
  if (trace.clock) format::write_trace_clock(writer, *trace.clock);
  writer.finish();  // complete even when the original was cut short: the warnings say that
  return sink.bytes();
}

}  // namespace parperf::analysis
