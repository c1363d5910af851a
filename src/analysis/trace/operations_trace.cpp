#include "analysis/trace/operations_trace.hpp"

#include <algorithm>
#include <map>

#include "format/memory_sink.hpp"
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

}  // namespace

std::vector<std::uint8_t> operations_trace(const format::TraceFile& trace) {
  format::MemorySink sink;
  format::RecordWriter writer(sink);
  writer.file_header(format::trace_header());
  writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::process));
  writer.record(trace.process);
  writer.end_section();
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
  if (trace.clock) {
    writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::clock));
    writer.record(*trace.clock);
    writer.end_section();
  }
  writer.finish();  // complete even when the original was cut short: the warnings say that
  return sink.bytes();
}

}  // namespace parperf::analysis
