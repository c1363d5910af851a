#include "unit/format_test_profiles.hpp"

#include <fstream>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "format/crc32c.hpp"
#include "format/memory_sink.hpp"
#include "format/record_writer.hpp"
#include "format/records.hpp"
#include "unit/profile_values.hpp"

namespace parperf::test {
namespace {

using format::ClockPhase;
using format::ClockSource;
using format::CollectiveInstance;
using format::Communicator;
using format::EndReason;
using format::Event;
using format::EventStats;
using format::IterationHistogram;
using format::kIterationBuckets;
using format::kNoParent;
using format::Node;
using format::OperationStats;
using format::Profile;
using format::Site;
using format::SiteKind;
using format::Thread;
using format::ThreadKind;

constexpr auto kMaxU64 = std::numeric_limits<std::uint64_t>::max();
constexpr auto kMaxI64 = std::numeric_limits<std::int64_t>::max();
constexpr auto kMinI64 = std::numeric_limits<std::int64_t>::min();

// Field values below are chosen so that no two fields of one record share a value: a reader that
// reads a field into its neighbour cannot pass the round trip by luck.
Node node(std::uint32_t parent, std::uint32_t site, std::int64_t value, std::uint64_t base) {
  Node n;
  n.parent = parent;
  n.site = site;
  n.value = value;
  n.count = base + 1;
  n.sum_ns = base * 1000 + 2;
  n.min_ns = base + 3;
  n.max_ns = base * 100 + 4;
  n.last_begin_ns = base * 10'000 + 5;
  n.os_user_self_ns = base * 500 + 6;
  n.os_sys_self_ns = base * 50 + 7;
  n.iterations.count = base + 8;
  n.iterations.sum_ns = base * 900 + 9;
  n.iterations.min_ns = base + 10;
  n.iterations.max_ns = base * 90 + 11;
  return n;
}

EventStats event_stats(std::uint32_t event, std::uint64_t base, std::string first_description) {
  return parperf::test::make_event_stats(event, base + 1, base + 2, base + 3, base * 1000 + 4, base + 5,
                                         base * 100 + 6, std::move(first_description));
}

OperationStats operation_stats(std::uint32_t site, std::uint64_t base) {
  OperationStats o;
  o.site = site;
  o.count = base + 1;
  o.sum_ns = base * 1000 + 2;
  o.min_ns = base + 3;
  o.max_ns = base * 100 + 4;
  o.wait_ns = base * 10 + 5;
  o.wait_max_ns = base + 6;
  o.sync_ns = base * 20 + 7;
  o.sync_max_ns = base + 8;
  o.bytes = base * 64 + 9;
  o.partner_min = static_cast<std::int64_t>(base % 7);
  o.partner_max = static_cast<std::int64_t>(base % 7 + 3);
  o.partner_set = (base << 4) | 0x9;
  o.overlap_ns = base * 30 + 10;
  o.last_begin_ns = base * 40'000 + 11;
  o.last_end_ns = base * 40'000 + 12;
  return o;
}

std::uint32_t kind(SiteKind k) { return static_cast<std::uint32_t>(k); }

}  // namespace

Profile rich_sample_profile() {
  Profile p;
  auto& proc = p.process;
  proc.rank = 5;
  proc.world_size = 12;
  proc.pid = 4'194'301;
  proc.start_unix_ns = 1'712'345'678'901'234'567u;
  proc.duration_ns = 98'765'432'101u;
  proc.end_reason = EndReason::signal;
  proc.end_signal = 15;
  proc.clock_source = ClockSource::monotonic;
  proc.thread_count = 3;
  proc.ticks_per_second = 2'899'999'872u;
  proc.max_depth = 48;
  proc.dropped_intervals = 77;
  p.threads_not_measured = 976;
  p.probe_costs = {{.thread = 0, .reserved = 0, .entry_ns = 31, .inside_ns = 12, .mark_ns = 9},
                   {.thread = 1, .reserved = 0, .entry_ns = 44, .inside_ns = 17, .mark_ns = 13}};
  // Sampled call paths (3.4): two modules, a path of three frames on thread 0 (one frame with no
  // module), one on thread 1 whose table overflowed.
  format::CallPaths paths;
  paths.clock = format::SampleClock::wall;
  paths.module_count = 2;
  paths.period_ns = 999'983;
  paths.source = format::SampleSource::perf_event;
  paths.thread_count = 2;
  paths.modules = {{.id = 0, .reserved = 0, .path = "/opt/solver/bin/solver"},
                   {.id = 1, .reserved = 0, .path = "/usr/lib/libm.so.6 (ç)"}};
  format::CallPathThread first;
  first.thread = 0;
  first.node_count = 3;
  first.samples = 1'234;
  first.dropped = 5;
  first.nodes = {
      {.parent = kNoParent, .interval = 1, .module = 0, .frame = 1, .address = 0x401a2b, .samples = 3},
      {.parent = 0, .interval = 1, .module = 1, .frame = 1, .address = 0x2f0c1, .samples = 700},
      {.parent = 1, .interval = 1, .module = kNoParent, .frame = 0, .address = 0x7fff0001, .samples = 526}};
  format::CallPathThread second;
  second.thread = 1;
  second.node_count = 1;
  second.samples = 77;
  second.dropped = 76;
  second.nodes = {
      {.parent = kNoParent, .interval = 0, .module = 0, .frame = 0, .address = 0x401000, .samples = 1}};
  paths.threads = {first, second};
  p.call_paths = paths;
  // Samples in start-up and shut-down (3.5), counted apart from the call paths.
  p.setup_samples = {{.thread = 0, .reserved = 0, .start_up = 41, .shut_down = 7},
                     {.thread = 1, .reserved = 0, .start_up = 3, .shut_down = 19}};
  // Threads of the programming model's own, left out (3.8).
  p.model_threads = 3;
  proc.hostname = "nœud-07.cluster.example";
  proc.command_line = "./solver --grid 512 --label \"a b\"";
  proc.parperf_version = "0.1.0-test";
  proc.openmp_runtime = "LLVM OMP version: 5.0.20140926";

  // Ids neither dense nor sorted; one empty name, one empty file, names in three scripts. The
  // annotation sites come first; then the OpenMP collector's sites, known by a module-relative code
  // address (the implicit barrier shares its loop's address and names the loop as its parent).
  p.sites = {
      parperf::test::make_site(7, 0, 1, "program", ""),
      parperf::test::make_site(3, 1, 120, "solve", "src/solver.cpp"),
      parperf::test::make_site(12, 2, kMaxI64, "Ω-loop ∑ 数据", "src/ядро.f90"),
      parperf::test::make_site(0xfffffffeu, 3, -42, "", "generated.c"),
      parperf::test::make_site(40, kind(SiteKind::omp_parallel), 0, "parallel", "", 0x1a2c, 0x1b80, kNoParent,
                               "/opt/app/bin/heat"),
      parperf::test::make_site(41, kind(SiteKind::omp_loop), 0, "loop", "", 0x1a58, 0x1b44, kNoParent,
                               "/opt/app/bin/heat"),
      parperf::test::make_site(42, kind(SiteKind::omp_implicit_barrier), 0, "implicit barrier", "", 0x1a58, 0,
                               41, "/opt/app/bin/heat"),
      parperf::test::make_site(43, kind(SiteKind::omp_critical), 0, "critical", "", kMaxU64, 0, kNoParent,
                               "/home/ünï/lib/libkern.so"),
      // The MPI collector's sites: the MPI function's name at the return address of the call.
      parperf::test::make_site(64, kind(SiteKind::mpi_recv), 0, "MPI_Recv", "", 0x2f10, 0, kNoParent,
                               "/opt/app/bin/heat"),
      parperf::test::make_site(65, kind(SiteKind::mpi_reduction), 0, "MPI_Allreduce", "", 0x2f48, 0,
                               kNoParent, "/opt/app/bin/heat"),
  };
  p.events = {
      Event{2, "halo exchange", "to rank %d, %zu bytes"},
      Event{0xffffffffu, "événement ✓", ""},
      Event{900, "", "a nameless event"},
  };

  // Thread 0, the initial thread: a three-level tree with user-event statistics, the extremes of
  // every integer type, then a parallel region holding a loop, with OpenMP operation statistics.
  Thread t0;
  t0.index = 0;
  t0.ended = true;
  t0.os_tid = 31'337;
  t0.start_ns = 1'001;
  t0.end_ns = 98'765'000'003;
  t0.kind = ThreadKind::initial;
  t0.nodes.push_back(node(kNoParent, 7, 0, 1'000'000));
  Node solve = node(0, 3, -17, 2'000);
  solve.events.push_back(event_stats(2, 700, "to rank 1, 4096 bytes"));
  solve.events.push_back(event_stats(900, 800, ""));
  t0.nodes.push_back(solve);
  Node extremes = node(1, 12, kMinI64, 3);
  extremes.count = kMaxU64;
  extremes.sum_ns = kMaxU64 - 1;
  extremes.max_ns = kMaxU64 - 2;
  extremes.iterations.count = kMaxU64 - 3;
  extremes.events.push_back(parperf::test::make_event_stats(0xffffffffu, kMaxU64, kMaxU64 - 4, kMaxU64 - 5,
                                                            kMaxU64 - 6, 0, kMaxU64 - 7, "Ω ✓ 数据"));
  // Its iteration distribution (3.3): the extremes of the sum of squares, the first and last buckets.
  IterationHistogram extreme_histogram;
  extreme_histogram.sum_squares_high = kMaxU64;
  extreme_histogram.sum_squares_low = kMaxU64 - 8;
  extreme_histogram.buckets[0] = kMaxU64 - 9;
  extreme_histogram.buckets[kIterationBuckets - 1] = 1;
  extremes.iteration_histogram = extreme_histogram;
  t0.nodes.push_back(extremes);
  t0.nodes.push_back(node(0, 0xfffffffeu, kMaxI64, 4'000));
  Node region = node(0, 40, 0, 11'000);
  region.operations.push_back(operation_stats(43, 12'000));
  t0.nodes.push_back(region);
  t0.nodes[1].operations.push_back(operation_stats(64, 17'000));  // MPI calls in "solve"
  t0.nodes[1].operations.push_back(operation_stats(65, 18'000));
  Node loop = node(4, 41, 0, 13'000);
  loop.operations.push_back(operation_stats(42, 14'000));
  OperationStats extreme;  // the largest values; no partner
  extreme.site = 43;
  extreme.count = kMaxU64;
  extreme.sum_ns = kMaxU64 - 1;
  extreme.min_ns = 0;
  extreme.max_ns = kMaxU64 - 2;
  extreme.wait_ns = kMaxU64 - 3;
  extreme.wait_max_ns = kMaxU64 - 4;
  extreme.sync_ns = kMaxU64 - 5;
  extreme.sync_max_ns = kMaxU64 - 6;
  extreme.bytes = kMaxU64 - 7;
  loop.operations.push_back(extreme);
  t0.nodes.push_back(loop);

  // Thread 2 before thread 1: the reader keeps file order and does not assume index == position.
  // An OpenMP worker, still running when the profile was written, with two entries open (a stack
  // of open nodes), then the parallel region it only joined (a context node) around its loop.
  Thread t2;
  t2.index = 2;
  t2.ended = false;
  t2.os_tid = -7;
  t2.start_ns = 5'000'000'017;
  t2.end_ns = 98'765'432'019;
  t2.kind = ThreadKind::openmp_worker;
  t2.parked_ns = 7'000'000'041;
  t2.read_running = 1;  // still running, read by another thread's write (3.6)
  t2.nodes.push_back(node(kNoParent, 7, 1, 5'000));
  Node open_loop = node(0, 12, 64, 6'000);
  open_loop.set_flag(format::kNodeOpen, true);
  open_loop.open_ns = 42'000'023;
  t2.nodes.push_back(open_loop);
  Node open_user = node(1, 3, -1, 7'000);
  open_user.set_flag(format::kNodeOpen, true);
  open_user.open_ns = 1'029;
  open_user.events.push_back(event_stats(2, 9'000, "to rank 0, 0 bytes"));
  t2.nodes.push_back(open_user);
  Node joined;  // no entries and no time of its own: only the path to the loop
  joined.parent = 0;
  joined.site = 40;
  joined.set_flag(format::kNodeContext, true);
  t2.nodes.push_back(joined);
  Node worker_loop = node(3, 41, 0, 15'000);
  IterationHistogram chunks;  // chunks of 1.1 to 40 us
  chunks.sum_squares_low = 3'000'000'019u;
  chunks.buckets[1] = 5;
  chunks.buckets[2] = 7;
  chunks.buckets[12] = 11;
  worker_loop.iteration_histogram = chunks;
  worker_loop.operations.push_back(operation_stats(42, 16'000));
  t2.nodes.push_back(worker_loop);

  // Thread 1: only its root node, nothing else recorded.
  Thread t1;
  t1.index = 1;
  t1.ended = true;
  t1.os_tid = 31'338;
  t1.start_ns = 2'000'000'031;
  t1.end_ns = 3'000'000'037;
  t1.nodes.push_back(node(kNoParent, 7, 0, 8'000));

  p.threads = {t0, t2, t1};

  // The mpi section of rank 5 of 12. A rank other than 0 holds only its own clock exchanges in
  // practice; `master_ns` is set here too, so that every field of the record is exercised.
  p.has_mpi = true;
  auto& mpi = p.mpi;
  mpi.world_rank = 5;
  mpi.world_size = 12;
  mpi.thread_level = 2;
  mpi.latency_ns = 1'733;
  mpi.bandwidth_bytes_per_s = 11'900'000'017u;
  mpi.library = "Open MPI v4.1.4, package: Debian ✓";
  mpi.clock = {
      parperf::test::make_clock_sync(ClockPhase::init, 5, 30'000'101, 30'004'103, 29'001'107, 4'002),
      parperf::test::make_clock_sync(ClockPhase::finalize, 5, 98'000'000'109, 98'000'006'113, 97'000'003'127,
                                     6'004),
  };
  // A world-sized communicator whose sample thinned out (stride 64) and a small one sampled whole,
  // holding a non-blocking collective (no departure) and an instance whose interval is unknown.
  format::Communicator world = parperf::test::make_communicator(3, 12, 5, 0x9e37'79b9'7f4a'7c15u, 0, 640, 64);
  world.instances = {CollectiveInstance{0, 31'000'131, 31'020'137, 0, 1, 65},
                     CollectiveInstance{64, 41'000'139, 41'030'149, 0, 1, 65},
                     CollectiveInstance{576, 91'000'151, 91'050'157, 2, 4, 65}};
  format::Communicator pair =
      parperf::test::make_communicator(0xfffffff0u, 2, 1, 0x0123'4567'89ab'cdefu, 3, 3, 1);
  pair.instances = {CollectiveInstance{0, 50'000'163, 50'000'167, 0, 5, 65},
                    CollectiveInstance{1, 60'000'173, 0, 0, 5, 65},
                    CollectiveInstance{2, 70'000'179, 70'000'181, 1, kNoParent, 65}};
  mpi.communicators = {world, pair};
  // The shmem section of PE 5 of 12: its traffic into three PEs' memory.
  p.has_shmem = true;
  p.shmem.pe = 5;
  p.shmem.pe_count = 12;
  p.shmem.traffic_lost = 1;  // a flag the reader keeps as it is
  p.shmem.traffic = {
      format::ShmemTrafficRecord{
          .target = 6, .operation = format::OneSidedOperation::put, .calls = 10, .bytes = 40'000},
      format::ShmemTrafficRecord{
          .target = 4, .operation = format::OneSidedOperation::get, .calls = 7, .bytes = kMaxU64},
      format::ShmemTrafficRecord{
          .target = 11, .operation = format::OneSidedOperation::atomic, .calls = 1, .bytes = 8}};
  return p;
}

Profile minimal_profile() {
  Profile p;
  p.process.thread_count = 1;
  p.process.ticks_per_second = 1'000'000'000;
  p.process.hostname = "localhost";
  p.sites = {parperf::test::make_site(0, 0, 0, "program", "")};
  Thread t;
  Node root;
  root.count = 1;
  t.nodes.push_back(root);
  p.threads = {t};
  return p;
}

std::vector<std::uint8_t> encode_profile(const Profile& profile) {
  format::MemorySink sink;
  format::RecordWriter writer(sink);
  write_records(writer, profile);
  return sink.bytes();
}

void write_profile_file(const std::filesystem::path& path, const Profile& profile) {
  const auto bytes = encode_profile(profile);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) throw std::runtime_error("cannot write " + path.string());
}

namespace {

std::string shown(const std::string& s) { return '"' + s + '"'; }
std::string shown(bool b) { return b ? "true" : "false"; }
template <class T>
std::string shown(const T& value) {
  if constexpr (std::is_enum_v<T>)
    return std::to_string(static_cast<std::underlying_type_t<T>>(value));
  else
    return std::to_string(value);
}

// Collects the first field that differs, named by its path in the model.
class Differences {
 public:
  template <class T>
  void field(const std::string& path, const T& actual, const T& expected) {
    if (first_.empty() && !(actual == expected))
      first_ = path + ": " + shown(actual) + ", expected " + shown(expected);
  }
  template <class T, class Compare>
  void list(const std::string& path, const std::vector<T>& actual, const std::vector<T>& expected,
            Compare compare) {
    field(path + ".size()", actual.size(), expected.size());
    for (std::size_t i = 0; first_.empty() && i < actual.size(); ++i)
      compare(path + "[" + std::to_string(i) + "]", actual[i], expected[i]);
  }
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

}  // namespace

std::string first_difference(const Profile& actual, const Profile& expected) {
  Differences d;
  const auto& a = actual.process;
  const auto& e = expected.process;
  d.field("process.rank", a.rank, e.rank);
  d.field("process.world_size", a.world_size, e.world_size);
  d.field("process.pid", a.pid, e.pid);
  d.field("process.start_unix_ns", a.start_unix_ns, e.start_unix_ns);
  d.field("process.duration_ns", a.duration_ns, e.duration_ns);
  d.field("process.end_reason", a.end_reason, e.end_reason);
  d.field("process.end_signal", a.end_signal, e.end_signal);
  d.field("process.clock_source", a.clock_source, e.clock_source);
  d.field("process.thread_count", a.thread_count, e.thread_count);
  d.field("process.ticks_per_second", a.ticks_per_second, e.ticks_per_second);
  d.field("process.max_depth", a.max_depth, e.max_depth);
  d.field("process.dropped_intervals", a.dropped_intervals, e.dropped_intervals);
  d.field("process.hostname", a.hostname, e.hostname);
  d.field("process.command_line", a.command_line, e.command_line);
  d.field("process.parperf_version", a.parperf_version, e.parperf_version);
  d.field("process.openmp_runtime", a.openmp_runtime, e.openmp_runtime);
  d.field("threads_not_measured", actual.threads_not_measured, expected.threads_not_measured);
  d.field("model_threads", actual.model_threads, expected.model_threads);
  d.field("call_paths", actual.call_paths.has_value(), expected.call_paths.has_value());
  if (actual.call_paths && expected.call_paths) {
    const format::CallPaths& ap = *actual.call_paths;
    const format::CallPaths& ep = *expected.call_paths;
    d.field("call_paths.clock", static_cast<std::uint32_t>(ap.clock), static_cast<std::uint32_t>(ep.clock));
    d.field("call_paths.period_ns", ap.period_ns, ep.period_ns);
    d.field("call_paths.source", static_cast<std::uint32_t>(ap.source),
            static_cast<std::uint32_t>(ep.source));
    d.list(
        "call_paths.modules", ap.modules, ep.modules,
        [&](const std::string& path, const format::CallPathModule& got, const format::CallPathModule& want) {
          d.field(path + ".id", got.id, want.id);
          d.field(path + ".path", got.path, want.path);
        });
    d.list(
        "call_paths.threads", ap.threads, ep.threads,
        [&](const std::string& path, const format::CallPathThread& got, const format::CallPathThread& want) {
          d.field(path + ".thread", got.thread, want.thread);
          d.field(path + ".samples", got.samples, want.samples);
          d.field(path + ".dropped", got.dropped, want.dropped);
          d.list(path + ".nodes", got.nodes, want.nodes,
                 [&](const std::string& at, const format::CallPathNode& g, const format::CallPathNode& w) {
                   d.field(at + ".parent", g.parent, w.parent);
                   d.field(at + ".interval", g.interval, w.interval);
                   d.field(at + ".module", g.module, w.module);
                   d.field(at + ".frame", g.frame, w.frame);
                   d.field(at + ".address", g.address, w.address);
                   d.field(at + ".samples", g.samples, w.samples);
                 });
        });
  }
  d.list("setup_samples", actual.setup_samples, expected.setup_samples,
         [&](const std::string& path, const format::SetupSamplesRecord& got,
             const format::SetupSamplesRecord& want) {
           d.field(path + ".thread", got.thread, want.thread);
           d.field(path + ".start_up", got.start_up, want.start_up);
           d.field(path + ".shut_down", got.shut_down, want.shut_down);
         });
  d.list("probe_costs", actual.probe_costs, expected.probe_costs,
         [&](const std::string& path, const format::ProbeCostsRecord& got,
             const format::ProbeCostsRecord& want) {
           d.field(path + ".thread", got.thread, want.thread);
           d.field(path + ".entry_ns", got.entry_ns, want.entry_ns);
           d.field(path + ".inside_ns", got.inside_ns, want.inside_ns);
           d.field(path + ".mark_ns", got.mark_ns, want.mark_ns);
         });

  d.list("sites", actual.sites, expected.sites, [&](const std::string& path, const Site& as, const Site& es) {
    d.field(path + ".id", as.id, es.id);
    d.field(path + ".kind", as.kind, es.kind);
    d.field(path + ".line", as.line, es.line);
    d.field(path + ".name", as.name, es.name);
    d.field(path + ".file", as.file, es.file);
    d.field(path + ".address", as.address, es.address);
    d.field(path + ".end_address", as.end_address, es.end_address);
    d.field(path + ".parent", as.parent, es.parent);
    d.field(path + ".module", as.module, es.module);
    // A site's function and end line are not in the file: the analysis keeps them (site_table.hpp).
  });
  d.list("events", actual.events, expected.events,
         [&](const std::string& path, const Event& ae, const Event& ee) {
           d.field(path + ".id", ae.id, ee.id);
           d.field(path + ".name", ae.name, ee.name);
           d.field(path + ".description", ae.description, ee.description);
         });
  const auto compare_stats = [&](const std::string& path, const EventStats& as, const EventStats& es) {
    d.field(path + ".event", as.event, es.event);
    d.field(path + ".starts", as.starts, es.starts);
    d.field(path + ".ends", as.count, es.count);
    d.field(path + ".atomics", as.atomics, es.atomics);
    d.field(path + ".sum_ns", as.sum_ns, es.sum_ns);
    d.field(path + ".min_ns", as.min_ns, es.min_ns);
    d.field(path + ".max_ns", as.max_ns, es.max_ns);
    d.field(path + ".first_description", as.first_description, es.first_description);
  };
  const auto compare_operation = [&](const std::string& path, const OperationStats& ao,
                                     const OperationStats& eo) {
    d.field(path + ".site", ao.site, eo.site);
    d.field(path + ".count", ao.count, eo.count);
    d.field(path + ".sum_ns", ao.sum_ns, eo.sum_ns);
    d.field(path + ".min_ns", ao.min_ns, eo.min_ns);
    d.field(path + ".max_ns", ao.max_ns, eo.max_ns);
    d.field(path + ".wait_ns", ao.wait_ns, eo.wait_ns);
    d.field(path + ".wait_max_ns", ao.wait_max_ns, eo.wait_max_ns);
    d.field(path + ".sync_ns", ao.sync_ns, eo.sync_ns);
    d.field(path + ".sync_max_ns", ao.sync_max_ns, eo.sync_max_ns);
    d.field(path + ".bytes", ao.bytes, eo.bytes);
    d.field(path + ".partner_min", ao.partner_min, eo.partner_min);
    d.field(path + ".partner_max", ao.partner_max, eo.partner_max);
    d.field(path + ".partner_set", ao.partner_set, eo.partner_set);
    d.field(path + ".overlap_ns", ao.overlap_ns, eo.overlap_ns);
    d.field(path + ".last_begin_ns", ao.last_begin_ns, eo.last_begin_ns);
    d.field(path + ".last_end_ns", ao.last_end_ns, eo.last_end_ns);
  };
  const auto compare_node = [&](const std::string& path, const Node& an, const Node& en) {
    d.field(path + ".parent", an.parent, en.parent);
    d.field(path + ".site", an.site, en.site);
    d.field(path + ".value", an.value, en.value);
    d.field(path + ".count", an.count, en.count);
    d.field(path + ".sum_ns", an.sum_ns, en.sum_ns);
    d.field(path + ".min_ns", an.min_ns, en.min_ns);
    d.field(path + ".max_ns", an.max_ns, en.max_ns);
    d.field(path + ".last_begin_ns", an.last_begin_ns, en.last_begin_ns);
    d.field(path + ".open_ns", an.open_ns, en.open_ns);
    d.field(path + ".open", an.open(), en.open());
    d.field(path + ".context", an.context(), en.context());
    d.field(path + ".os_user_self_ns", an.os_user_self_ns, en.os_user_self_ns);
    d.field(path + ".os_sys_self_ns", an.os_sys_self_ns, en.os_sys_self_ns);
    d.field(path + ".iterations", an.iterations.count, en.iterations.count);
    d.field(path + ".iteration_sum_ns", an.iterations.sum_ns, en.iterations.sum_ns);
    d.field(path + ".iteration_min_ns", an.iterations.min_ns, en.iterations.min_ns);
    d.field(path + ".iteration_max_ns", an.iterations.max_ns, en.iterations.max_ns);
    d.field(path + ".iteration_histogram.has_value()", an.iteration_histogram.has_value(),
            en.iteration_histogram.has_value());
    if (an.iteration_histogram && en.iteration_histogram) {
      const IterationHistogram& ah = *an.iteration_histogram;
      const IterationHistogram& eh = *en.iteration_histogram;
      d.field(path + ".iteration_histogram.sum_squares_high", ah.sum_squares_high, eh.sum_squares_high);
      d.field(path + ".iteration_histogram.sum_squares_low", ah.sum_squares_low, eh.sum_squares_low);
      for (std::uint32_t b = 0; b < kIterationBuckets; ++b)
        d.field(path + ".iteration_histogram.buckets[" + std::to_string(b) + "]", ah.buckets[b],
                eh.buckets[b]);
    }
    d.list(path + ".events", an.events, en.events, compare_stats);
    d.list(path + ".operations", an.operations, en.operations, compare_operation);
  };
  d.list("threads", actual.threads, expected.threads,
         [&](const std::string& path, const Thread& at, const Thread& et) {
           d.field(path + ".index", at.index, et.index);
           d.field(path + ".ended", at.ended, et.ended);
           d.field(path + ".os_tid", at.os_tid, et.os_tid);
           d.field(path + ".start_ns", at.start_ns, et.start_ns);
           d.field(path + ".end_ns", at.end_ns, et.end_ns);
           d.field(path + ".kind", at.kind, et.kind);
           d.field(path + ".read_running", at.read_running, et.read_running);
           d.field(path + ".parked_ns", at.parked_ns, et.parked_ns);
           d.list(path + ".nodes", at.nodes, et.nodes, compare_node);
         });

  d.field("has_mpi", actual.has_mpi, expected.has_mpi);
  const auto& am = actual.mpi;
  const auto& em = expected.mpi;
  d.field("mpi.world_rank", am.world_rank, em.world_rank);
  d.field("mpi.world_size", am.world_size, em.world_size);
  d.field("mpi.thread_level", am.thread_level, em.thread_level);
  d.field("mpi.latency_ns", am.latency_ns, em.latency_ns);
  d.field("mpi.bandwidth_bytes_per_s", am.bandwidth_bytes_per_s, em.bandwidth_bytes_per_s);
  d.field("mpi.library", am.library, em.library);
  d.list("mpi.clock", am.clock, em.clock,
         [&](const std::string& path, const format::ClockSync& ac, const format::ClockSync& ec) {
           d.field(path + ".phase", ac.phase, ec.phase);
           d.field(path + ".rank", ac.rank, ec.rank);
           d.field(path + ".send_ns", ac.send_ns, ec.send_ns);
           d.field(path + ".recv_ns", ac.recv_ns, ec.recv_ns);
           d.field(path + ".master_ns", ac.master_ns, ec.master_ns);
           d.field(path + ".round_trip_ns", ac.round_trip_ns, ec.round_trip_ns);
         });
  const auto compare_instance = [&](const std::string& path, const CollectiveInstance& ax,
                                    const CollectiveInstance& ex) {
    d.field(path + ".sequence", ax.sequence, ex.sequence);
    d.field(path + ".arrive_ns", ax.arrive_ns, ex.arrive_ns);
    d.field(path + ".leave_ns", ax.leave_ns, ex.leave_ns);
    d.field(path + ".thread", ax.thread, ex.thread);
    d.field(path + ".node", ax.node, ex.node);
    d.field(path + ".site", ax.site, ex.site);
  };
  d.field("has_shmem", actual.has_shmem, expected.has_shmem);
  d.field("shmem.pe", actual.shmem.pe, expected.shmem.pe);
  d.field("shmem.pe_count", actual.shmem.pe_count, expected.shmem.pe_count);
  d.field("shmem.traffic_lost", actual.shmem.traffic_lost, expected.shmem.traffic_lost);
  d.list("shmem.traffic", actual.shmem.traffic, expected.shmem.traffic,
         [&](const std::string& path, const format::ShmemTrafficRecord& at,
             const format::ShmemTrafficRecord& et) {
           d.field(path + ".target", at.target, et.target);
           d.field(path + ".operation", at.operation, et.operation);
           d.field(path + ".calls", at.calls, et.calls);
           d.field(path + ".bytes", at.bytes, et.bytes);
         });
  d.list("mpi.communicators", am.communicators, em.communicators,
         [&](const std::string& path, const Communicator& ac, const Communicator& ec) {
           d.field(path + ".id", ac.id, ec.id);
           d.field(path + ".size", ac.size, ec.size);
           d.field(path + ".rank", ac.rank, ec.rank);
           d.field(path + ".members_hash", ac.members_hash, ec.members_hash);
           d.field(path + ".ordinal", ac.ordinal, ec.ordinal);
           d.field(path + ".collectives", ac.collectives, ec.collectives);
           d.field(path + ".stride", ac.stride, ec.stride);
           d.list(path + ".instances", ac.instances, ec.instances, compare_instance);
         });
  return d.first();
}

std::uint64_t load_uint(std::span<const std::uint8_t> bytes, std::size_t offset, std::size_t width) {
  const bool big = bytes.size() > 12 && bytes[12] == format::kBigEndian;
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const std::uint64_t byte = bytes[offset + i];
    value |= byte << (8 * (big ? width - 1 - i : i));
  }
  return value;
}

void store_uint(std::vector<std::uint8_t>& bytes, std::size_t offset, std::size_t width,
                std::uint64_t value) {
  const bool big = bytes.size() > 12 && bytes[12] == format::kBigEndian;
  for (std::size_t i = 0; i < width; ++i)
    bytes[offset + i] = static_cast<std::uint8_t>(value >> (8 * (big ? width - 1 - i : i)));
}

namespace {
constexpr std::size_t kFileHeaderSize = 16;
constexpr std::size_t kSectionHeaderSize = 12;
constexpr std::size_t kChecksumSize = 4;
}  // namespace

std::vector<SectionSpan> section_spans(std::span<const std::uint8_t> bytes) {
  std::vector<SectionSpan> spans;
  std::size_t at = kFileHeaderSize;
  while (at + kSectionHeaderSize <= bytes.size() && load_uint(bytes, at, 4) != format::kEndMarker) {
    SectionSpan s;
    s.type = static_cast<std::uint32_t>(load_uint(bytes, at, 4));
    s.offset = at;
    s.length = load_uint(bytes, at + 4, 8);
    s.payload_offset = at + kSectionHeaderSize;
    if (s.length > bytes.size() - s.payload_offset ||
        bytes.size() - s.payload_offset - s.length < kChecksumSize)
      break;
    s.crc_offset = s.payload_offset + static_cast<std::size_t>(s.length);
    spans.push_back(s);
    at = s.crc_offset + kChecksumSize;
  }
  return spans;
}

std::size_t end_marker_offset(std::span<const std::uint8_t> bytes) {
  const auto spans = section_spans(bytes);
  const std::size_t at = spans.empty() ? kFileHeaderSize : spans.back().crc_offset + kChecksumSize;
  if (at + 4 <= bytes.size() && load_uint(bytes, at, 4) == format::kEndMarker) return at;
  return bytes.size();
}

void reseal_checksums(std::vector<std::uint8_t>& bytes) {
  for (const auto& s : section_spans(bytes)) {
    // The checksum covers the type as stored, then the payload.
    std::uint32_t crc = format::crc32c_update(0, bytes.data() + s.offset, 4);
    crc = format::crc32c_update(crc, bytes.data() + s.payload_offset, static_cast<std::size_t>(s.length));
    store_uint(bytes, s.crc_offset, kChecksumSize, crc);
  }
}

}  // namespace parperf::test
