// parperf-trace-analysis-stages DIR [REPETITIONS]: where a real traced run's analysis spends its time
// and memory. parperf-trace-analysis-bench measures a made-up stencil whose clocks agree; a real run
// (its trace files as `parperf report` reads them, its clocks as they were) differs: on an
// oversubscribed machine the repair moves nearly every node, its blocks are compressed, its
// operations come in other proportions. Runs the stages of `analyse_traces` one after another, as it
// runs them on one thread, REPETITIONS times (5 if not given), and prints for each the median time,
// millions of events a second, and the heap it left held and held at most while it ran, in bytes a
// trace event; then the whole `analyse_traces` on one and on two threads. The heap is counted as
// parperf-trace-analysis-bench counts it (heap_peak.hpp), and set as `parperf` sets it.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/analysis_heap.hpp"
#include "analysis/trace/clock_check.hpp"
#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/critical_path.hpp"
#include "analysis/trace/delay_costs.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/replay.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/wait_states.hpp"
#include "heap_peak.hpp"

namespace {

using namespace parperf;

// One stage's measurements over the repetitions.
struct Measured {
  std::vector<double> seconds;
  double held = 0, peak = 0;  // bytes, of the last repetition (the same in each)
};

class Stages {
 public:
  explicit Stages(double events) : events_(events) {}

  // Runs `stage` and records its time and the heap around it, against what was held before the
  // analysis began.
  void run(const std::string& name, const std::function<void()>& stage) {
    if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.push_back(name);
    heap_peak::reset();
    const auto start = std::chrono::steady_clock::now();
    stage();
    const auto end = std::chrono::steady_clock::now();
    Measured& m = measured_[name];
    m.seconds.push_back(std::chrono::duration<double>(end - start).count());
    m.held = static_cast<double>(heap_peak::held() - base_);
    m.peak = static_cast<double>(heap_peak::peak() - base_);
  }
  void set_base() { base_ = heap_peak::held(); }

  void print() const {
    fmt::print("{:<28} {:>9} {:>12} {:>10} {:>10}\n", "stage", "ms", "M events/s", "held B/ev", "peak B/ev");
    for (const std::string& name : names_) {
      const Measured& m = measured_.at(name);
      std::vector<double> s = m.seconds;
      std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
      const double median = s[s.size() / 2];
      fmt::print("{:<28} {:>9.1f} {:>12.2f} {:>10.1f} {:>10.1f}\n", name, median * 1e3,
                 events_ / median * 1e-6, m.held / events_, m.peak / events_);
    }
  }

 private:
  double events_;
  std::size_t base_ = 0;
  std::vector<std::string> names_;  // in the order first run
  std::map<std::string, Measured> measured_;
};

int measure(const std::filesystem::path& directory, int repetitions) {
  const analysis::RunData run = analysis::load_run(directory);
  const analysis::TraceRun traces = analysis::load_traces(run);
  const auto events = static_cast<double>(analysis::trace_events(traces));
  if (events == 0) {
    fmt::print(stderr, "{}: no trace events (was it run with --trace?)\n", directory.string());
    return 1;
  }
  fmt::print("{}: {} ranks, {:.0f} trace events, {} repetitions\n", directory.string(), traces.ranks.size(),
             events, repetitions);
  Stages stages(events);
  for (int r = 0; r < repetitions; ++r) {
    stages.set_base();
    analysis::Communication communication;
    std::optional<analysis::ActivityGraphDraft> draft(std::in_place, traces,
                                                      analysis::ActivityGraphDraft::unread);
    stages.run("match, count the nodes",
               [&] { communication = analysis::match_communication(traces, &draft->counter()); });
    stages.run("read the graph's nodes", [&] { draft->read(); });
    std::optional<analysis::ActivityGraph> graph;
    stages.run("link the graph", [&] {
      graph.emplace(std::move(*draft).finish(communication));
      draft.reset();
    });
    analysis::ClockRepair repair;
    analysis::NetworkModel network;
    stages.run("repair the graph's clocks", [&] {
      repair = analysis::repair_clock_condition(*graph);
      network = analysis::fit_network(*graph);
    });
    stages.run("repair the calls' clocks", [&] { analysis::repair_communication(communication, repair); });
    stages.run("wait states", [&] {
      analysis::find_wait_states(traces, communication);
      communication = {};
    });
    stages.run("critical path", [&] { analysis::critical_path(*graph, analysis::PathPieces::none); });
    stages.run("POP factors", [&] { analysis::pop_factors(*graph, network); });
    stages.run("replay (self-check)", [&] { analysis::replay(*graph, network, {}); });
    stages.run("delay costs", [&] { analysis::delay_costs(*graph); });
  }
  for (int r = 0; r < repetitions; ++r) {
    stages.set_base();
    stages.run("analyse_traces, 1 thread", [&] { analysis::analyse_traces(traces, 1); });
    stages.run("analyse_traces, 2 threads", [&] { analysis::analyse_traces(traces, 2); });
  }
  stages.print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* heap = std::getenv("PARPERF_BENCH_HEAP"); !heap || std::string(heap) != "malloc")
    analysis::keep_freed_memory_for_reuse();
  if (argc < 2 || argc > 3) {
    fmt::print(stderr, "usage: parperf-trace-analysis-stages DIR [REPETITIONS]\n");
    return 2;
  }
  try {
    return measure(argv[1], argc == 3 ? std::max(1, std::atoi(argv[2])) : 5);
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf-trace-analysis-stages: {}\n", e.what());
    return 1;
  }
}
