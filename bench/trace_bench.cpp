// The event trace's encoding (src/format/trace_events.hpp) and block compression: what recording an
// event costs on the program's thread, how fast the writer compresses, and how many bytes an event
// takes on disk. The events mimic a thread's stream: nested intervals of a few sites, entered with
// an iteration value, about a microsecond apart with some jitter, and an operation now and then.
//
//   build/bin/parperf-trace-bench [--benchmark_filter=...]
//
// Targets (issue 13): recording at most 15 ns an event amortized, at most 3 bytes an event on disk,
// merging at least 30 million events a second on one core (BM_MergeTimeline: the merge itself;
// BM_MergeTraceFile: with the blocks decompressed and decoded, as the analyses read a trace).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "analysis/trace/timeline_merge.hpp"
#include "format/memory_sink.hpp"
#include "format/record_writer.hpp"
#include "format/trace_events.hpp"
#include "format/trace_file.hpp"

namespace {

using parperf::format::TraceBlockEncoder;

constexpr std::size_t kBlockBytes = 256 * 1024;  // a thread's buffer

// Time stamps of a thread's events: ~2400 ticks (1 µs at 2.4 GHz) apart, with jitter.
std::vector<std::uint64_t> event_times(std::size_t count) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<std::uint64_t> jitter(0, 400);
  std::vector<std::uint64_t> times(count);
  std::uint64_t t = 1'000'000'000'000ull;
  for (auto& time : times) time = t += 2200 + jitter(random);
  return times;
}

// Fills one block with a stream of enter/leave pairs at 4 sites (one in 16 an operation); returns
// the events encoded.
std::uint32_t fill_block(TraceBlockEncoder& encoder, const std::vector<std::uint64_t>& times) {
  std::size_t i = 0;
  for (std::int64_t iteration = 0;; ++iteration) {
    const std::uint32_t site = static_cast<std::uint32_t>(iteration % 4) + 1;
    if (i + 3 >= times.size()) break;
    if (!encoder.enter(times[i++], site, iteration)) break;
    if (iteration % 16 == 0 && !encoder.operation({.start = times[i++],
                                                   .site = 9,
                                                   .duration = 1800,
                                                   .wait = 1200,
                                                   .bytes = 64,
                                                   .partner = 1,
                                                   .communicator = 1,
                                                   .match = 7}))
      break;
    if (!encoder.leave(times[i++], site)) break;
  }
  return encoder.event_count();
}

void BM_EncodeEvent(benchmark::State& state) {
  const std::vector<std::uint64_t> times = event_times(1 << 20);
  std::vector<std::uint8_t> buffer(kBlockBytes);
  std::uint64_t events = 0;
  for (auto _ : state) {
    TraceBlockEncoder encoder(buffer.data(), buffer.size(), times.front());
    events += fill_block(encoder, times);
    benchmark::DoNotOptimize(buffer.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));  // items/s: events a second
}
BENCHMARK(BM_EncodeEvent);

void BM_CompressBlock(benchmark::State& state) {
  const std::vector<std::uint64_t> times = event_times(1 << 20);
  std::vector<std::uint8_t> buffer(kBlockBytes);
  TraceBlockEncoder encoder(buffer.data(), buffer.size(), times.front());
  const std::uint32_t events = fill_block(encoder, times);
  buffer = parperf::format::encoded_block(buffer.data(), buffer.size(), encoder);
  std::size_t compressed = 0;
  for (auto _ : state) compressed = parperf::format::compress_trace_events(buffer).size();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * events);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * buffer.size()));
  state.counters["raw_bytes_per_event"] = static_cast<double>(buffer.size()) / events;
  state.counters["disk_bytes_per_event"] = static_cast<double>(compressed) / events;
}
BENCHMARK(BM_CompressBlock);

void BM_DecodeBlock(benchmark::State& state) {
  const std::vector<std::uint64_t> times = event_times(1 << 20);
  std::vector<std::uint8_t> buffer(kBlockBytes);
  TraceBlockEncoder encoder(buffer.data(), buffer.size(), times.front());
  const std::uint32_t events = fill_block(encoder, times);
  buffer = parperf::format::encoded_block(buffer.data(), buffer.size(), encoder);
  for (auto _ : state)
    benchmark::DoNotOptimize(parperf::format::decode_trace_events(buffer, times.front(), events).size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * events);
}
BENCHMARK(BM_DecodeBlock);

// A thread of synthetic events 1 µs apart, shifted per thread so that the merge interleaves them.
class SyntheticThread final : public parperf::analysis::ThreadEvents {
 public:
  SyntheticThread(std::int64_t rank, std::uint32_t thread, std::size_t count)
      : ThreadEvents(rank, thread), count_(count) {}
  bool next(double& local_ns, parperf::format::TraceEvent& event) override {
    if (i_ == count_) return false;
    event.kind = parperf::format::TraceEventKind::leave;
    event.site = static_cast<std::uint32_t>(i_ % 7);
    local_ns = 1000.0 * static_cast<double>(i_++) + thread();
    return true;
  }

 private:
  std::size_t count_;
  std::size_t i_ = 0;
};

void BM_MergeTimeline(benchmark::State& state) {
  const auto threads = static_cast<std::uint32_t>(state.range(0));
  constexpr std::size_t kPerThread = 100000;
  std::uint64_t merged = 0;
  for (auto _ : state) {
    std::vector<std::unique_ptr<parperf::analysis::ThreadEvents>> streams;
    for (std::uint32_t t = 0; t < threads; ++t)
      streams.push_back(std::make_unique<SyntheticThread>(t % 4, t, kPerThread));
    parperf::analysis::merge_timeline(streams, parperf::analysis::ClockCorrection{},
                                      [&](const parperf::analysis::TimelineEvent&) { ++merged; });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(merged));
}
BENCHMARK(BM_MergeTimeline)->Arg(8)->Arg(64);

// A trace file of `threads` threads, each `blocks` compressed blocks of fill_block's events, the
// threads' times interleaved; written to a temporary file and returned as its path.
std::filesystem::path trace_file_of(std::uint32_t threads, std::uint32_t blocks) {
  using namespace parperf::format;
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header(trace_header());
  TraceProcessRecord process;
  process.ticks_per_second = 2'400'000'000ull;
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::process));
  writer.record(process);
  writer.end_section();
  const std::vector<std::uint64_t> times = event_times(1 << 18);
  std::vector<std::uint8_t> buffer(kBlockBytes / 4);
  for (std::uint32_t block = 0; block < blocks; ++block)
    for (std::uint32_t thread = 0; thread < threads; ++thread) {
      std::vector<std::uint64_t> shifted(times.size());
      for (std::size_t i = 0; i < times.size(); ++i)
        shifted[i] = times[i] + thread * 97 + block * (times.back() - times.front());
      TraceBlockEncoder encoder(buffer.data(), buffer.size(), shifted.front());
      fill_block(encoder, shifted);
      const std::vector<std::uint8_t> raw = encoded_block(buffer.data(), buffer.size(), encoder);
      const std::vector<std::uint8_t> compressed = compress_trace_events(raw);
      TraceBlockRecord header;
      header.thread = thread;
      header.sequence = block;
      header.base_ticks = shifted.front();
      header.event_count = encoder.event_count();
      header.raw_bytes = static_cast<std::uint32_t>(raw.size());
      header.compression = static_cast<std::uint32_t>(TraceCompression::zstd);
      header.encoded_bytes = static_cast<std::uint32_t>(compressed.size());
      write_trace_block(writer, header, compressed);
    }
  writer.finish();
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "parperf-trace-bench.ppt";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(sink.bytes().data()),
             static_cast<std::streamsize>(sink.bytes().size()));
  return path;
}

// What `parperf export` and the wait-state analysis do per event: the merge of a real trace file,
// its blocks decompressed and decoded as the streams reach them.
void BM_MergeTraceFile(benchmark::State& state) {
  const auto threads = static_cast<std::uint32_t>(state.range(0));
  const std::filesystem::path path = trace_file_of(threads, 4);
  std::uint64_t merged = 0;
  for (auto _ : state) {
    auto trace = std::make_shared<const parperf::format::TraceFile>(parperf::format::open_trace_index(path));
    auto streams = parperf::analysis::thread_streams(trace);
    parperf::analysis::merge_timeline(streams, parperf::analysis::ClockCorrection{},
                                      [&](const parperf::analysis::TimelineEvent&) { ++merged; });
  }
  std::filesystem::remove(path);
  state.SetItemsProcessed(static_cast<std::int64_t>(merged));
}
BENCHMARK(BM_MergeTraceFile)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
