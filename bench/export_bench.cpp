// Export throughput (src/export, `parperf export`): events a second from the decoded traces
// through the merge, the slices and one writer, for each format. The run is synthetic and held in
// memory: 4 ranks of 4 threads, each thread a stream of nested enter/leave pairs at 4 sites, one
// in 16 iterations an MPI send of 64 bytes, ~1 µs apart. Files go to a temporary directory.
//
//   build/bin/parperf-export-bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace/trace_run.hpp"
#include "export/chrome_json_writer.hpp"
#include "export/csv_writer.hpp"
#include "export/export_timeline.hpp"
#include "export/otf2_writer.hpp"
#include "export/perfetto_writer.hpp"

namespace {

using namespace parperf;

constexpr int kRanks = 4;
constexpr std::uint32_t kThreads = 4;
constexpr std::size_t kEventsPerThread = 50'000;

format::Site site(std::uint32_t id, format::SiteKind kind, const std::string& name) {
  format::Site s;
  s.id = id;
  s.kind = static_cast<std::uint32_t>(kind);
  s.name = name;
  s.file = "stencil.c";
  s.line = 10 * id;
  return s;
}

// One thread's events: iterations of enter(site 1..4) [MPI_Send] leave, 1 µs apart.
std::vector<format::TraceEvent> thread_events(std::int64_t rank) {
  std::vector<format::TraceEvent> events;
  std::uint64_t t = 1000;
  for (std::int64_t i = 0; events.size() < kEventsPerThread; ++i) {
    const auto s = static_cast<std::uint32_t>(i % 4) + 1;
    events.push_back({.kind = format::TraceEventKind::enter, .ticks = t += 1000, .site = s, .value = i});
    if (i % 16 == 0)
      events.push_back({.kind = format::TraceEventKind::operation,
                        .ticks = t += 1000,
                        .site = 5,
                        .duration = 800,
                        .wait = 300,
                        .bytes = 64,
                        .partner = (rank + 1) % kRanks,
                        .match = 7});
    events.push_back({.kind = format::TraceEventKind::leave, .ticks = t += 1000, .site = s});
  }
  return events;
}

struct SyntheticRun {
  SyntheticRun() {
    for (int r = 0; r < kRanks; ++r) {
      format::Profile& p = profiles.emplace_back();
      p.process.rank = r;
      p.process.hostname = "node";
      p.sites = {site(1, format::SiteKind::user, "update"), site(2, format::SiteKind::user, "halo"),
                 site(3, format::SiteKind::user, "residual"), site(4, format::SiteKind::user, "swap"),
                 site(5, format::SiteKind::mpi_send, "MPI_Send")};
    }
    for (int r = 0; r < kRanks; ++r) {
      auto trace = std::make_shared<format::TraceFile>();
      trace->process.rank = r;
      trace->process.ticks_per_second = 1'000'000'000;
      for (std::uint32_t t = 0; t < kThreads; ++t) {
        format::TraceBlock block;
        block.header.thread = t;
        block.events = thread_events(r);
        block.header.event_count = static_cast<std::uint32_t>(block.events.size());
        events += block.events.size();
        trace->blocks.push_back(std::move(block));
      }
      traces.ranks.push_back(
          analysis::RankTrace{r, "trace.ppt", trace, &profiles[static_cast<std::size_t>(r)]});
    }
  }
  std::vector<format::Profile> profiles;
  analysis::TraceRun traces;
  std::uint64_t events = 0;
};

const SyntheticRun& run() {
  static const SyntheticRun r;
  return r;
}

std::filesystem::path scratch() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("parperf-export-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// The bytes under `path` (a file, or an OTF2 archive's directory).
std::uintmax_t size_of(const std::filesystem::path& path) {
  if (!std::filesystem::is_directory(path)) return std::filesystem::file_size(path);
  std::uintmax_t bytes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
    if (entry.is_regular_file()) bytes += entry.file_size();
  return bytes;
}

// Exports the synthetic run through the writer `make` builds, once per iteration; reports the
// size of what was written at `output` per event.
template <class Make>
void export_through(benchmark::State& state, Make make, const std::filesystem::path& output = {}) {
  const SyntheticRun& r = run();
  const analysis::SiteTable sites;
  const exports::TimelineNames names(r.traces, sites);
  std::uint64_t exported = 0;
  for (auto _ : state) {
    std::unique_ptr<exports::TimelineWriter> writer = make(names);
    std::vector<exports::TimelineWriter*> writers;
    if (writer) writers.push_back(writer.get());
    exported += exports::export_timeline(r.traces, names, {}, writers);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(exported));
  if (!output.empty())
    state.counters["bytes_per_event"] = static_cast<double>(size_of(output)) / static_cast<double>(r.events);
}

void BM_ExportMergeAndSlicesOnly(benchmark::State& state) {
  export_through(state,
                 [](const exports::TimelineNames&) { return std::unique_ptr<exports::TimelineWriter>(); });
}
void BM_ExportPerfetto(benchmark::State& state) {
  export_through(
      state,
      [](const exports::TimelineNames& names) {
        return std::make_unique<exports::PerfettoWriter>(scratch() / "trace.pftrace", names);
      },
      scratch() / "trace.pftrace");
}
void BM_ExportChromeJson(benchmark::State& state) {
  export_through(
      state,
      [](const exports::TimelineNames& names) {
        return std::make_unique<exports::ChromeJsonWriter>(scratch() / "trace.json", names);
      },
      scratch() / "trace.json");
}
void BM_ExportCsv(benchmark::State& state) {
  export_through(
      state,
      [](const exports::TimelineNames& names) {
        return std::make_unique<exports::CsvWriter>(scratch() / "trace.csv", names);
      },
      scratch() / "trace.csv");
}
void BM_ExportOtf2(benchmark::State& state) {
  export_through(
      state,
      [](const exports::TimelineNames& names) {
        std::filesystem::remove_all(scratch() / "otf2");
        return std::make_unique<exports::Otf2Writer>(scratch() / "otf2", names);
      },
      scratch() / "otf2");
}
BENCHMARK(BM_ExportMergeAndSlicesOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportPerfetto)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportChromeJson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportCsv)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportOtf2)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::filesystem::remove_all(scratch());
  return 0;
}
