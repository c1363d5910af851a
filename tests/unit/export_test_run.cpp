#include "unit/export_test_run.hpp"

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/memory_sink.hpp"
#include "format/trace_file.hpp"
#include "unit/analysis_mpi_test_profiles.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::test {

namespace {

using format::TraceEvent;
using format::TraceEventKind;

// Sites of both ranks' profiles, by id.
enum Site : std::uint32_t { kSolve = 2, kStep = 3, kWorker = 4, kSend = 5, kRecv = 6, kAllreduce = 7 };
constexpr std::uint32_t kPhase = 1, kCheckpoint = 2;  // user events
constexpr std::uint64_t kMembersHash = 0x5eed;
constexpr std::uint32_t kCommunicatorId = 100;  // MpiProfile's id of the first communicator

format::Profile profile_of(std::int64_t rank) {
  MpiProfile p(rank, 2);
  p.thread(20 * kMs);
  p.thread(5 * kMs, format::ThreadKind::openmp_worker);
  for (format::Thread& t : p.profile().threads)
    t.end_ns = 25 * kMs;  // the threads' lifetimes hold their nodes
  p.site(kind(format::SiteKind::user), "solve", "solver.c", 42);
  p.site(kind(format::SiteKind::user), "step", "solver.c", 50);
  p.site(kind(format::SiteKind::user), "worker", "worker.c", 7);
  p.site(kind(format::SiteKind::mpi_send), "MPI_Send", "app.c", 10);
  p.site(kind(format::SiteKind::mpi_recv), "MPI_Recv", "app.c", 20);
  p.site(kind(format::SiteKind::mpi_reduction), "MPI_Allreduce", "app.c", 30);
  p.profile().events = {format::Event{kPhase, "phase", "%s"},
                        format::Event{kCheckpoint, "checkpoint", "step %s"}};
  p.communicator(kMembersHash, 0, 2, rank, 1);
  // Rank 1 measured 5 ms behind rank 0 at the init exchange: mid-point 1000 ms on its clock when
  // rank 0's read 1005 ms.
  if (rank == 1)
    p.clock(format::ClockPhase::init, 999 * kMs, 1001 * kMs);
  else
    p.master_clock(format::ClockPhase::init, 1, 1005 * kMs);
  // Thread 0's intervals as its profile has them (node 1 solve, node 2 step), and its sampled paths.
  const std::uint32_t solve = p.node(0, 0, kSolve, 10 * kMs);
  const std::uint32_t step = p.node(0, solve, kStep, 4 * kMs);
  format::CallPaths paths;
  paths.period_ns = 1'000'000;
  format::CallPathThread thread;
  thread.thread = 0;
  auto node = [&](std::uint32_t parent, std::uint32_t interval, std::uint32_t frame, std::uint64_t address,
                  std::uint64_t samples) {
    format::CallPathNode n;
    n.parent = parent;
    n.interval = interval;
    n.frame = frame;
    n.address = address;
    n.samples = samples;
    thread.nodes.push_back(n);
  };
  node(format::kNoParent, solve, 1, 0x1000, 0);  // 0: main
  node(0, solve, 0, 0x2000, 2);                  // 1: the samples at 11 and 11.5 ms
  node(format::kNoParent, step, 1, 0x1000, 0);   // 2: main
  node(2, step, 0, 0x3000, 3);                   // 3: at 13 ms (weight 2) and 14 ms
  thread.node_count = static_cast<std::uint32_t>(thread.nodes.size());
  thread.samples = kSamplesPerRank;
  paths.threads.push_back(thread);
  paths.thread_count = 1;
  p.profile().call_paths = paths;
  return p.profile();
}

// Ticks are ns on the rank's own clock since its start: true time, less 5 ms on rank 1.
// Rank 1's clock ticks twice a ns: time stamps, durations and waits are all in ticks.
std::uint64_t ticks_per_second(std::int64_t rank) { return rank == 1 ? 2'000'000'000 : 1'000'000'000; }
std::uint64_t ticks(std::int64_t rank, std::uint64_t ns) {
  return ns * ticks_per_second(rank) / 1'000'000'000;
}

// A true time on the rank's clock.
std::uint64_t local(std::int64_t rank, double true_ms) {
  return ticks(rank, static_cast<std::uint64_t>(true_ms * kMsNs - (rank == 1 ? kRank1BehindNs : 0)));
}

std::vector<TraceEvent> thread0(std::int64_t rank) {
  auto at = [&](double ms) { return local(rank, ms); };
  std::vector<TraceEvent> e;
  e.push_back({.kind = TraceEventKind::enter, .ticks = at(10), .site = kSolve});
  e.push_back({.kind = TraceEventKind::enter, .ticks = at(12), .site = kStep, .value = 1});
  if (rank == 0)
    e.push_back({.kind = TraceEventKind::operation,
                 .ticks = at(13),
                 .site = kSend,
                 .duration = ticks(rank, 1 * kMs),
                 .bytes = 800,
                 .partner = 1,
                 .communicator = kCommunicatorId + 1,
                 .match = 7});
  else
    e.push_back({.kind = TraceEventKind::operation,
                 .ticks = at(13),
                 .site = kRecv,
                 .duration = ticks(rank, 2 * kMs),
                 .wait = ticks(rank, 1 * kMs),
                 .bytes = 800,
                 .partner = 0,
                 .communicator = kCommunicatorId + 1,
                 .match = 7});
  e.push_back({.kind = TraceEventKind::leave, .ticks = at(16), .site = kStep});
  e.push_back({.kind = TraceEventKind::event_atomic,
               .ticks = at(17),
               .event = kCheckpoint,
               .text = "step \"1\", done"});
  e.push_back({.kind = TraceEventKind::operation,
               .ticks = at(18),
               .site = kAllreduce,
               .duration = ticks(rank, 1 * kMs),
               .wait = rank == 0 ? ticks(rank, kMs / 2) : 0,
               .bytes = 8,
               .communicator = kCommunicatorId + 1,
               .match = 0});
  e.push_back({.kind = TraceEventKind::leave, .ticks = at(20), .site = kSolve});
  e.push_back({.kind = TraceEventKind::recording_off, .ticks = at(20)});
  return e;
}

std::vector<TraceEvent> thread1(std::int64_t rank) {
  auto at = [&](double ms) { return local(rank, ms); };
  return {{.kind = TraceEventKind::enter, .ticks = at(11), .site = kWorker},
          {.kind = TraceEventKind::event_start, .ticks = at(12), .event = kPhase, .text = "warm, up"},
          {.kind = TraceEventKind::event_end, .ticks = at(14), .event = kPhase},
          {.kind = TraceEventKind::leave, .ticks = at(16), .site = kWorker}};
}

void write_block(format::RecordWriter<format::MemorySink>& writer, std::uint32_t thread,
                 std::uint64_t sequence, const std::vector<TraceEvent>& events) {
  std::vector<std::uint8_t> raw(1 << 16);
  format::TraceBlockEncoder encoder(raw.data(), raw.size(), 0);
  for (const TraceEvent& e : events)
    if (!encoder.append(e)) throw std::logic_error("a test block overflowed");
  raw = format::encoded_block(raw.data(), raw.size(), encoder);
  format::TraceBlockRecord block;
  block.thread = thread;
  block.sequence = sequence;
  block.event_count = encoder.event_count();
  block.raw_bytes = block.encoded_bytes = static_cast<std::uint32_t>(raw.size());
  format::write_trace_block(writer, block, raw);
}

// Thread 0's samples (the profile's nodes 1 and 3), as the trace writer writes them.
void write_samples(format::RecordWriter<format::MemorySink>& writer, std::int64_t rank, bool troubled) {
  std::vector<format::TraceSample> samples = {
      {local(rank, 11), 1, 1}, {local(rank, 11.5), 1, 1}, {local(rank, 13), 3, 2}, {local(rank, 14), 3, 1}};
  if (troubled) samples.push_back({local(rank, 15), 99, 1});
  std::vector<std::uint8_t> raw(samples.size() * format::kMaxSampleBytes);
  raw.resize(format::encode_trace_samples(samples.data(), samples.size(), samples[0].ticks, raw.data()));
  format::TraceSampleBlockRecord block;
  block.base_ticks = samples[0].ticks;
  block.sample_count = static_cast<std::uint32_t>(samples.size());
  block.raw_bytes = block.encoded_bytes = static_cast<std::uint32_t>(raw.size());
  block.lost = troubled ? kLostSamples : 0;
  format::write_trace_samples(writer, block, raw);
}

void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

std::uint64_t write_export_test_run(const std::filesystem::path& directory, bool troubled_samples) {
  std::filesystem::create_directories(directory);
  std::uint64_t rank1_before_last_block = 0;
  for (std::int64_t rank : {0, 1}) {
    write_profile_file(directory / ("profile." + std::to_string(rank) + ".ppf"), profile_of(rank));
    format::MemorySink sink;
    format::RecordWriter writer(sink);
    writer.file_header(format::trace_header());
    format::TraceProcessRecord process;
    process.rank = rank;
    process.pid = 1000 + rank;
    process.ticks_per_second = ticks_per_second(rank);
    writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::process));
    writer.record(process);
    writer.end_section();
    const std::vector<TraceEvent> first = thread0(rank);
    if (rank == 1) {
      write_block(writer, 0, 0, {first.begin(), first.begin() + kRank1FirstBlockEvents});
      write_block(writer, 1, 0, thread1(rank));
      rank1_before_last_block = sink.bytes().size();
      write_block(writer, 0, 1, {first.begin() + kRank1FirstBlockEvents, first.end()});
    } else {
      write_block(writer, 0, 0, first);
      write_block(writer, 1, 0, thread1(rank));
    }
    write_samples(writer, rank, troubled_samples && rank == 0);
    format::TraceClockRecord clock;
    clock.ticks_per_second = ticks_per_second(rank);
    clock.end_ticks = local(rank, 21);
    writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::clock));
    writer.record(clock);
    writer.end_section();
    writer.finish();
    write_file(directory / ("trace." + std::to_string(rank) + ".ppt"), sink.bytes());
  }
  return rank1_before_last_block;
}

}  // namespace parperf::test
