// The trace analysis's speed and memory (src/analysis/trace, issue 26 item 7): each stage of
// `analyse_traces` timed on its own, in events a second on one core (items_per_second), from 2 to 64
// ranks of a stencil program, and the activity graph's bytes an event.
//
//   build/bin/parperf-trace-analysis-bench [--benchmark_filter=...]
//   PARPERF_BENCH_ITERATIONS=4000 build/bin/parperf-trace-analysis-bench   (the large sizes)
//   build/bin/parperf-trace-analysis-bench --fingerprint   (hashes of every result, 2 to 64 ranks:
//     a speed-up must print the same lines before and after; analysis_fingerprint.hpp; it fails
//     when the analysis on two threads differs from the one on one)
//   PARPERF_BENCH_HEAP=malloc build/bin/parperf-trace-analysis-bench   (glibc's own heap settings,
//     not parperf's: analysis_heap.hpp)
//
// The run is synthetic and written as trace files to a temporary directory, read as `parperf report`
// reads them (an index; blocks decompressed and decoded as the analyses reach them). Each rank runs
// PARPERF_BENCH_ITERATIONS (default 500) iterations of: enter "iteration", enter/leave "compute"
// (40 µs, up to 10 % more on the last rank, with jitter), MPI_Irecv from both neighbours of a ring,
// MPI_Isend of 4 KiB to both, MPI_Waitall (its second message traced as an event of its own, as
// the MPI collector does), MPI_Allreduce, leave: 11 events an iteration, between MPI_Init and
// MPI_Finalize. Times follow from a latency of 2 µs and 10 bytes/ns; every rank's clock is off
// by a known offset that the clock correction undoes to within 100 ns (less than any message takes,
// so the repair checks every edge and moves none; PARPERF_BENCH_CLOCK_RESIDUAL_NS=3000 has it move
// nodes, for a change to the repair).
//
// Stages, as analyse_traces runs them: match (match_communication), waits (find_wait_states),
// graph (build_activity_graph), repair (repair_clock_condition + fit_network), critical path
// (critical_path through the graph's own times), delay costs, POP (pop_factors: its replays),
// what-if (one replay on the fitted network), and all of analyse_traces. Memory: peak_B_per_event, the most
// a stage held on the heap at once beyond its inputs (heap_peak.hpp; its result included), and on
// BM_AnalyseTraces graph_B_per_event, the capacities of the activity graph's vectors, an event.
//
// Targets (issue 26): >= 10 M events/s per process, <= 64 B/event; docs/efficiency-model.md ("Scale")
// has one run's figures and where the time and bytes go.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/analysis_heap.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/delay_costs.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/operations_trace.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/timeline_merge.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/wait_states.hpp"
#include "analysis_fingerprint.hpp"
#include "format/site_kinds.hpp"
#include "format/trace_file.hpp"
#include "heap_peak.hpp"

namespace {

using namespace parperf;
using format::SiteKind;
using format::TraceEvent;
using format::TraceEventKind;

constexpr std::uint64_t kWorldHash = 0x5EED;
constexpr std::uint32_t kWorld = 1;  // the events' id of MPI_COMM_WORLD: the profile's id 0, + 1
constexpr double kLatencyNs = 2000;
constexpr double kBytesPerNs = 10;
constexpr std::uint64_t kHaloBytes = 4096;         // small enough for fit_network's latency
constexpr std::int64_t kToLeft = 1, kToRight = 2;  // the tags of the halo messages, by direction

enum Site : std::uint32_t { iteration = 1, compute, irecv, isend, waitall, allreduce, init, finalize };

std::uint64_t iterations() {
  const char* v = std::getenv("PARPERF_BENCH_ITERATIONS");
  return v && std::atoi(v) > 0 ? static_cast<std::uint64_t>(std::atoi(v)) : 500;
}

format::Profile profile_of(std::int64_t rank, std::uint32_t ranks) {
  format::Profile p;
  p.process.rank = rank;
  p.has_mpi = true;
  format::Communicator world;
  world.id = 0;
  world.size = ranks;
  world.members_hash = kWorldHash;
  p.mpi.communicators.push_back(world);
  const auto add = [&](Site id, SiteKind kind, const char* name, std::int64_t line) {
    format::Site s;
    s.id = id;
    s.kind = static_cast<std::uint32_t>(kind);
    s.name = name;
    s.file = "stencil.c";
    s.line = line;
    p.sites.push_back(s);
  };
  add(iteration, SiteKind::user, "iteration", 20);
  add(compute, SiteKind::user, "compute", 22);
  add(irecv, SiteKind::mpi_irecv, "MPI_Irecv", 30);
  add(isend, SiteKind::mpi_isend, "MPI_Isend", 32);
  add(waitall, SiteKind::mpi_wait, "MPI_Waitall", 34);
  add(allreduce, SiteKind::mpi_reduction, "MPI_Allreduce", 40);
  add(init, SiteKind::mpi_management, "MPI_Init", 10);
  add(finalize, SiteKind::mpi_management, "MPI_Finalize", 50);
  return p;
}

// Each rank's events in true time (ns), simulated iteration by iteration over all ranks at once:
// a rank's Waitall ends when both neighbours' messages have arrived, the Allreduce when the last
// rank arrived and a tree of log2(ranks) latencies later.
std::vector<std::vector<TraceEvent>> stencil_events(std::uint32_t ranks, std::uint64_t count) {
  std::vector<std::vector<TraceEvent>> events(ranks);
  std::mt19937_64 random(26);
  std::uniform_int_distribution<std::uint64_t> jitter(0, 2000);
  const auto op = [](std::uint32_t site, double start, double end, std::int64_t partner, std::uint32_t comm,
                     std::int64_t match, std::uint64_t bytes) {
    TraceEvent e;
    e.kind = TraceEventKind::operation;
    e.ticks = static_cast<std::uint64_t>(start);
    e.site = site;
    e.duration = static_cast<std::uint64_t>(end) - e.ticks;
    e.partner = partner;
    e.communicator = comm;
    e.match = match;
    e.bytes = bytes;
    return e;
  };
  const double transfer = kLatencyNs + static_cast<double>(kHaloBytes) / kBytesPerNs;
  const double tree = kLatencyNs * std::bit_width(ranks - 1);
  std::vector<double> start(ranks), to_left(ranks), to_right(ranks), waited(ranks), arrive(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const double end = 1'000'000 + 300.0 * r;
    events[r].push_back(op(init, 500'000, end, -1, 0, 0, 0));  // after every clock offset
    start[r] = end + 1000;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::uint32_t r = 0; r < ranks; ++r) {
      std::vector<TraceEvent>& e = events[r];
      const auto left = static_cast<std::int64_t>((r + ranks - 1) % ranks);
      const auto right = static_cast<std::int64_t>((r + 1) % ranks);
      const double work =
          40'000 * (1 + 0.1 * r / std::max(1u, ranks - 1)) + static_cast<double>(jitter(random));
      double t = start[r];
      e.push_back({.kind = TraceEventKind::enter,
                   .ticks = static_cast<std::uint64_t>(t),
                   .site = iteration,
                   .value = static_cast<std::int64_t>(i)});
      e.push_back(
          {.kind = TraceEventKind::enter, .ticks = static_cast<std::uint64_t>(t += 200), .site = compute});
      e.push_back(
          {.kind = TraceEventKind::leave, .ticks = static_cast<std::uint64_t>(t += work), .site = compute});
      e.push_back(op(irecv, t + 300, t + 600, left, kWorld, kToRight, kHaloBytes));
      e.push_back(op(irecv, t + 700, t + 1000, right, kWorld, kToLeft, kHaloBytes));
      to_left[r] = t + 1100;
      e.push_back(op(isend, to_left[r], to_left[r] + 800, left, kWorld, kToLeft, kHaloBytes));
      to_right[r] = t + 2000;
      e.push_back(op(isend, to_right[r], to_right[r] + 800, right, kWorld, kToRight, kHaloBytes));
      waited[r] = t + 2900;
    }
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const std::uint32_t left = (r + ranks - 1) % ranks, right = (r + 1) % ranks;
      const double end = std::max({waited[r] + 500, to_right[left] + transfer, to_left[right] + transfer});
      // The Waitall's first receive is on the event itself; the second, at its end, on one of its own.
      events[r].push_back(op(waitall, waited[r], end, left, kWorld, kToRight, kHaloBytes));
      events[r].push_back(op(waitall, end, end, right, kWorld, kToLeft, kHaloBytes));
      arrive[r] = end + 200;
    }
    const double last = *std::max_element(arrive.begin(), arrive.end());
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const double end = last + tree + 100.0 * (r % 3);
      events[r].push_back(op(allreduce, arrive[r], end, -1, kWorld, static_cast<std::int64_t>(i), 8));
      events[r].push_back(
          {.kind = TraceEventKind::leave, .ticks = static_cast<std::uint64_t>(end + 100), .site = iteration});
      start[r] = end + 300;
    }
  }
  for (std::uint32_t r = 0; r < ranks; ++r)
    events[r].push_back(op(finalize, start[r], start[r] + 50'000, -1, 0, 0, 0));
  return events;
}

// Rank r's clock reads this much less than true time; the correction adds it back but for a
// residual of up to 100 ns, or of up to twice PARPERF_BENCH_CLOCK_RESIDUAL_NS (a residual beyond a
// message's 2 µs has the repair move nodes: `--fingerprint` of a change to the repair).
double clock_offset(std::uint32_t r) { return 5000.0 * r; }
double residual(std::uint32_t r) {
  static const double step = [] {
    const char* v = std::getenv("PARPERF_BENCH_CLOCK_RESIDUAL_NS");
    return v ? std::strtod(v, nullptr) : 50.0;
  }();
  return step * (static_cast<double>(r % 5) - 2);
}

struct StencilRun {
  explicit StencilRun(std::uint32_t ranks) {
    directory = std::filesystem::temp_directory_path() /
                ("parperf-trace-analysis-bench-" + std::to_string(::getpid()) + "-" + std::to_string(ranks));
    std::filesystem::create_directories(directory);
    std::vector<std::vector<TraceEvent>> all = stencil_events(ranks, iterations());
    for (std::uint32_t r = 0; r < ranks; ++r) {
      profiles.push_back(profile_of(r, ranks));
      format::TraceFile trace;
      trace.process.rank = r;
      trace.process.ticks_per_second = 1'000'000'000;
      trace.clock = format::TraceClockRecord{.ticks_per_second = 1'000'000'000};
      format::TraceBlock& block = trace.blocks.emplace_back();
      block.events = std::move(all[r]);
      for (TraceEvent& e : block.events) e.ticks -= static_cast<std::uint64_t>(clock_offset(r));
      block.header.event_count = static_cast<std::uint32_t>(block.events.size());
      events += block.events.size();
      const std::vector<std::uint8_t> bytes = analysis::operations_trace(trace);
      const std::string name = "trace." + std::to_string(r) + ".ppt";
      std::ofstream(directory / name, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      auto index = std::make_shared<const format::TraceFile>(format::open_trace_index(directory / name));
      traces.ranks.push_back({r, name, std::move(index), &profiles.back()});
      analysis::RankClock& clock = traces.clocks.clocks[r];
      clock.rank = r;
      clock.corrected = r != 0;
      clock.offset = clock_offset(r) + residual(r);
    }
  }
  ~StencilRun() {
    traces.ranks.clear();  // unmaps the files first
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  }
  std::filesystem::path directory;
  std::deque<format::Profile> profiles;  // stable addresses: the traces point to them
  analysis::TraceRun traces;
  std::uint64_t events = 0;
};

// A run's stages' inputs, computed once per size.
struct Prepared {
  explicit Prepared(std::uint32_t r) : ranks(r), run(r) {
    communication = analysis::match_communication(run.traces);
    unrepaired = analysis::build_activity_graph(run.traces, communication);
    // Figures of a run whose communication did not pair up would measure something else.
    if (communication.unmatched_sends + communication.unmatched_receives +
                unrepaired.unlinked.outside_window >
            0 ||
        communication.collectives.size() != iterations() ||
        unrepaired.linked.messages != 2 * iterations() * r)
      throw std::logic_error("the synthetic stencil run's messages and collectives do not all pair up");
    graph = unrepaired;
    analysis::repair_clock_condition(graph);
    network = analysis::fit_network(graph);
  }
  std::uint32_t ranks;
  StencilRun run;
  analysis::Communication communication;
  analysis::ActivityGraph unrepaired, graph;
  analysis::NetworkModel network;
};

// One size at a time: the large ones need the memory.
const Prepared& prepared(std::uint32_t ranks) {
  static std::unique_ptr<Prepared> current;
  if (!current || current->ranks != ranks) {
    current.reset();
    current = std::make_unique<Prepared>(ranks);
  }
  return *current;
}

// Runs `stage` on the prepared run of state.range(0) ranks; items are the trace's events.
template <class Stage>
void time_stage(benchmark::State& state, Stage stage) {
  const Prepared& p = prepared(static_cast<std::uint32_t>(state.range(0)));
  const std::size_t before = heap_peak::held();
  heap_peak::reset();
  for (auto _ : state) stage(p);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.run.events));
  state.counters["events"] = static_cast<double>(p.run.events);
  state.counters["peak_B_per_event"] =
      static_cast<double>(heap_peak::peak() - before) / static_cast<double>(p.run.events);
}

// The floor under every stage that reads the trace: its events decoded, thread by thread.
void BM_Decode(benchmark::State& state) {
  time_stage(state, [](const Prepared& p) {
    std::uint64_t events = 0;
    for (const analysis::RankTrace& rank : p.run.traces.ranks)
      for (auto& stream : analysis::thread_streams(rank.trace)) {
        double local = 0;
        TraceEvent e;
        while (stream->next(local, e)) ++events;
      }
    benchmark::DoNotOptimize(events);
  });
}
void BM_Match(benchmark::State& state) {
  time_stage(state, [](const Prepared& p) {
    benchmark::DoNotOptimize(analysis::match_communication(p.run.traces).messages.size());
  });
}
void BM_WaitStates(benchmark::State& state) {
  time_stage(state, [](const Prepared& p) {
    benchmark::DoNotOptimize(analysis::find_wait_states(p.run.traces, p.communication));
  });
}
void BM_BuildGraph(benchmark::State& state) {
  time_stage(state, [](const Prepared& p) {
    benchmark::DoNotOptimize(analysis::build_activity_graph(p.run.traces, p.communication).nodes());
  });
}
void BM_RepairClocks(benchmark::State& state) {
  const Prepared& p = prepared(static_cast<std::uint32_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    analysis::ActivityGraph graph = p.unrepaired;
    state.ResumeTiming();
    benchmark::DoNotOptimize(analysis::repair_clock_condition(graph).edges);
    benchmark::DoNotOptimize(analysis::fit_network(graph));
    state.PauseTiming();
    graph = {};  // its freeing is not the repair's
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.run.events));
}
void BM_CriticalPath(benchmark::State& state) {
  time_stage(state,
             [](const Prepared& p) { benchmark::DoNotOptimize(analysis::critical_path(p.graph).length_ns); });
}
void BM_DelayCosts(benchmark::State& state) {
  time_stage(state, [](const Prepared& p) { benchmark::DoNotOptimize(analysis::delay_costs(p.graph)); });
}
void BM_PopFactors(benchmark::State& state) {
  time_stage(state,
             [](const Prepared& p) { benchmark::DoNotOptimize(analysis::pop_factors(p.graph, p.network)); });
}
void BM_WhatIfReplay(benchmark::State& state) {
  time_stage(state, [](const Prepared& p) {
    benchmark::DoNotOptimize(analysis::replay(p.graph, p.network, {}).length());
  });
}

// The activity graph's vectors, by their capacities.
std::size_t graph_bytes(const analysis::ActivityGraph& g) {
  const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  std::size_t b = bytes(g.locations) + bytes(g.time) + bytes(g.segment) + bytes(g.stack) +
                  bytes(g.operation) + g.with_in_edges.capacity_bytes() + bytes(g.in_edge_begin) +
                  bytes(g.edges) + g.order.capacity_bytes() + bytes(g.intervals) + bytes(g.stacks) +
                  bytes(g.operations);
  return b;
}

// Arg 1: the threads analyse_traces may use (1: every stage in turn on one core; 2: the parts that
// need none of each other's results at once). Timed by the wall clock, its CPU time that of every
// thread.
void BM_AnalyseTraces(benchmark::State& state) {
  const Prepared& p = prepared(static_cast<std::uint32_t>(state.range(0)));
  const auto threads = static_cast<unsigned>(state.range(1));
  const auto events = static_cast<double>(p.run.events);
  std::size_t peak = 0, graph = 0, nodes = 0, edges = 0;
  for (auto _ : state) {
    const std::size_t before = heap_peak::held();
    heap_peak::reset();
    const analysis::TraceAnalysis a = analysis::analyse_traces(p.run.traces, threads);
    peak = std::max(peak, heap_peak::peak() - before);
    graph = graph_bytes(*a.graph);
    nodes = a.graph->nodes();
    edges = a.graph->edges.size();
    benchmark::DoNotOptimize(a.critical_path.length_ns);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.run.events));
  state.counters["events"] = events;
  state.counters["nodes_per_event"] = static_cast<double>(nodes) / events;
  state.counters["edges_per_event"] = static_cast<double>(edges) / events;
  state.counters["graph_B_per_event"] = static_cast<double>(graph) / events;
  state.counters["peak_B_per_event"] = static_cast<double>(peak) / events;
}

// Every stage at one size, then the next: one run's figures for a table, each size prepared once.
void sizes(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMillisecond)->MinTime(0.05); }

std::uint64_t analysis_fingerprint(const analysis::TraceAnalysis& a) {
  bench::Fingerprint f;
  f.add(bench::graph_fingerprint(*a.graph)).add(bench::critical_path_fingerprint(a.critical_path));
  f.add(bench::pop_fingerprint(a.pop)).add(bench::delay_fingerprint(a.delays)).add(a.replayed_ns);
  return f.value();
}

// One line a size: the hashes of the matched communication, the graph as built and as analysed,
// the critical path, POP factors, delay costs and the replay, with a few values in the clear. Fails
// when the analysis on two threads gives anything else than on one.
int print_fingerprints() {
  for (std::uint32_t ranks = 2; ranks <= 64; ranks *= 2) {
    const StencilRun run(ranks);
    const analysis::Communication communication = analysis::match_communication(run.traces);
    const analysis::ActivityGraph built = analysis::build_activity_graph(run.traces, communication);
    const analysis::TraceAnalysis a = analysis::analyse_traces(run.traces);
    std::printf("ranks %2u events %7" PRIu64 " communication %016" PRIx64 " graph %016" PRIx64
                " repaired %016" PRIx64 " path %016" PRIx64 " pop %016" PRIx64 " delays %016" PRIx64
                " path_ns %.17g parallel_efficiency %.17g replayed_ns %.17g\n",
                ranks, run.events, bench::communication_fingerprint(communication),
                bench::graph_fingerprint(built), bench::graph_fingerprint(*a.graph),
                bench::critical_path_fingerprint(a.critical_path), bench::pop_fingerprint(a.pop),
                bench::delay_fingerprint(a.delays), a.critical_path.length_ns,
                a.pop.overall.parallel_efficiency, a.replayed_ns);
    if (analysis_fingerprint(analysis::analyse_traces(run.traces, 2)) != analysis_fingerprint(a)) {
      std::printf("ranks %2u: the analysis on two threads differs from the one on one thread\n", ranks);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // As parperf's own main does (analysis_heap.hpp): the figures are the command's. PARPERF_BENCH_HEAP=
  // malloc measures glibc's defaults instead.
  if (const char* heap = std::getenv("PARPERF_BENCH_HEAP"); !heap || std::string_view(heap) != "malloc")
    analysis::keep_freed_memory_for_reuse();
  if (argc > 1 && std::string_view(argv[1]) == "--fingerprint") return print_fingerprints();
  benchmark::Initialize(&argc, argv);
  for (std::int64_t ranks = 2; ranks <= 64; ranks *= 2) {
    const auto add = [&](const char* name, void (*fn)(benchmark::State&)) {
      sizes(benchmark::RegisterBenchmark(name, fn)->Arg(ranks));
    };
    add("BM_Match", BM_Match);
    add("BM_WaitStates", BM_WaitStates);
    add("BM_Decode", BM_Decode);
    add("BM_BuildGraph", BM_BuildGraph);
    add("BM_RepairClocks", BM_RepairClocks);
    add("BM_CriticalPath", BM_CriticalPath);
    add("BM_DelayCosts", BM_DelayCosts);
    add("BM_PopFactors", BM_PopFactors);
    add("BM_WhatIfReplay", BM_WhatIfReplay);
    for (const std::int64_t threads : {1, 2})
      sizes(benchmark::RegisterBenchmark("BM_AnalyseTraces", BM_AnalyseTraces)
                ->Args({ranks, threads})
                ->MeasureProcessCPUTime()
                ->UseRealTime());
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
