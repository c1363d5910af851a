#include "analysis/trace/pop_factors.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/replay.hpp"

namespace parperf::analysis {
namespace {

PopFactors factors(const std::vector<double>& useful, double run_time, double ideal_time) {
  PopFactors f = profile_pop_factors(useful, run_time);
  const double most = useful.empty() ? 0 : *std::max_element(useful.begin(), useful.end());
  if (ideal_time > 0 && run_time > 0) {
    f.serialisation_efficiency = std::min(1.0, most / ideal_time);
    f.transfer_efficiency = std::min(1.0, ideal_time / run_time);
  }
  return f;
}

double ratio(double a, double b) { return b > 0 ? a / b : 1; }

PopFactors divided(const PopFactors& a, const PopFactors& b) {
  PopFactors f;
  f.parallel_efficiency = ratio(a.parallel_efficiency, b.parallel_efficiency);
  f.load_balance = ratio(a.load_balance, b.load_balance);
  f.communication_efficiency = ratio(a.communication_efficiency, b.communication_efficiency);
  if (a.serialisation_efficiency && b.serialisation_efficiency)
    f.serialisation_efficiency = ratio(*a.serialisation_efficiency, *b.serialisation_efficiency);
  if (a.transfer_efficiency && b.transfer_efficiency)
    f.transfer_efficiency = ratio(*a.transfer_efficiency, *b.transfer_efficiency);
  return f;
}

}  // namespace

PopFactors profile_pop_factors(const std::vector<double>& useful, double run_time) {
  PopFactors f;
  if (useful.empty() || run_time <= 0) return f;
  const double most = *std::max_element(useful.begin(), useful.end());
  const double mean = std::accumulate(useful.begin(), useful.end(), 0.0) / static_cast<double>(useful.size());
  f.load_balance = most > 0 ? mean / most : 1;
  f.communication_efficiency = std::min(1.0, most / run_time);
  f.parallel_efficiency = f.load_balance * f.communication_efficiency;
  return f;
}

namespace {

// What the factors are computed from: per location its useful time, per rank its first thread's
// time outside MPI and OpenSHMEM calls, over a span of the run.
struct UsefulTimes {
  std::vector<double> useful;                                            // per location
  std::map<std::int64_t, std::pair<std::uint32_t, double>> outside_mpi;  // rank -> (first thread, its time)
  std::map<std::int64_t, std::uint32_t> threads;                         // rank -> threads
  void add(const UsefulTimes& o) {
    for (std::size_t l = 0; l < useful.size() && l < o.useful.size(); ++l) useful[l] += o.useful[l];
    for (const auto& [rank, t] : o.outside_mpi) {
      auto [it, added] = outside_mpi.try_emplace(rank, t);
      if (!added) it->second.second += t.second;
    }
    for (const auto& [rank, n] : o.threads) threads[rank] = std::max(threads[rank], n);
  }
};

// Each location's segments cut to its rank's window [from, to] (measured times); locations of ranks
// without a window are left out (their useful time 0, not counted).
template <class Window>
UsefulTimes useful_times(const ActivityGraph& g, const Window& window_of, std::vector<bool>& counted) {
  UsefulTimes u;
  u.useful.assign(g.locations.size(), 0);
  counted.assign(g.locations.size(), false);
  for (std::size_t l = 0; l < g.locations.size(); ++l) {
    const GraphLocation& loc = g.locations[l];
    const std::optional<std::pair<double, double>> window = window_of(loc.rank);
    if (!window) continue;
    counted[l] = true;
    const auto [from, to] = *window;
    double outside = 0;
    // Segments' lengths, waiting included (a node's cost leaves out what it waited for).
    for (std::uint32_t k = loc.first + 1; k < loc.end; ++k) {
      const double length = std::max(0.0, std::min(to, g.time[k]) - std::max(from, g.time[k - 1]));
      if (g.segment[k] == SegmentKind::useful) u.useful[l] += length;
      if (g.segment[k] == SegmentKind::useful || g.segment[k] == SegmentKind::openmp ||
          g.segment[k] == SegmentKind::idle)
        outside += length;
    }
    ++u.threads[loc.rank];
    auto [it, added] = u.outside_mpi.try_emplace(loc.rank, loc.thread, outside);
    if (!added && loc.thread < it->second.first) it->second = {loc.thread, outside};
  }
  return u;
}

struct Factors {
  PopFactors overall;
  std::optional<PopFactors> mpi, openmp;
  double max_useful_ns = 0, mean_useful_ns = 0;
};

Factors all_factors(const UsefulTimes& u, const std::vector<bool>& counted, double run_time, double ideal,
                    double ideal_mpi) {
  Factors f;
  std::vector<double> useful;
  for (std::size_t l = 0; l < u.useful.size(); ++l)
    if (counted[l]) useful.push_back(u.useful[l]);
  if (useful.empty()) return f;
  f.max_useful_ns = *std::max_element(useful.begin(), useful.end());
  f.mean_useful_ns = std::accumulate(useful.begin(), useful.end(), 0.0) / static_cast<double>(useful.size());
  f.overall = factors(useful, run_time, ideal);
  const bool several_ranks = u.outside_mpi.size() > 1;
  const bool several_threads =
      std::any_of(u.threads.begin(), u.threads.end(), [](const auto& t) { return t.second > 1; });
  if (several_ranks && several_threads) {
    std::vector<double> outside;
    for (const auto& [rank, t] : u.outside_mpi) outside.push_back(t.second);
    f.mpi = factors(outside, run_time, ideal_mpi);
    f.openmp = divided(f.overall, *f.mpi);
  } else if (several_ranks) {
    f.mpi = f.overall;
  } else if (several_threads) {
    f.openmp = f.overall;
  }
  return f;
}

template <class Run>
std::string processes_model(const ActivityGraph& g, const Run& run) {
  bool mpi = false, shmem = false;  // the locations' own segments (hubs stand for no call)
  for (const GraphLocation& l : g.locations)
    for (std::uint32_t k = l.first; k < l.end; ++k) {
      mpi |= g.segment[k] == SegmentKind::mpi;
      shmem |= g.segment[k] == SegmentKind::shmem;
    }
  mpi = run.any(mpi);
  shmem = run.any(shmem);
  return shmem && mpi ? "MPI+SHMEM" : shmem ? "SHMEM" : "MPI";
}

}  // namespace

namespace {

// The run seen from the whole graph (one process): its figures as they are.
struct WholeRun {
  const ActivityGraph& g;
  const NetworkModel& fitted;
  bool any(bool v) const { return v; }
  std::uint64_t locations() const { return g.locations.size(); }
  std::uint64_t ranks(const GraphPhase& phase) const { return phase.ranks.size(); }
  ReplayResult replay(const ReplayChanges& changes) const { return analysis::replay(g, fitted, changes); }
  PhaseSpan span(const GraphPhase& phase, const std::vector<double>& time) const {
    return phase_span(phase, time);
  }
  UsefulTimes of_every_location(UsefulTimes u, std::vector<bool>&) const { return u; }
};

// The run seen from a part (graph_part.hpp): its figures combined with the other parts'; the
// locations' useful times gathered in the run's location order, each location's summed by the part
// that holds it as the whole graph sums it.
struct RunOfParts {
  const GraphPart& part;
  const NetworkModel& fitted;
  PartExchange& exchange;
  bool any(bool v) const { return any_part(exchange, v); }
  std::uint64_t locations() const { return sum_of_parts(exchange, part.graph.locations.size()); }
  std::uint64_t ranks(const GraphPhase& phase) const { return sum_of_parts(exchange, phase.ranks.size()); }
  ReplayResult replay(const ReplayChanges& changes) const {
    return replay_part(part, fitted, changes, exchange);
  }
  PhaseSpan span(const GraphPhase& phase, const std::vector<double>& time) const {
    return phase_span(phase, time, exchange);
  }
  UsefulTimes of_every_location(const UsefulTimes& mine, std::vector<bool>& counted) const {
    PartBytes bytes;
    bytes.put_all(mine.useful);
    bytes.put_all(std::vector<std::uint8_t>(counted.begin(), counted.end()));
    bytes.put(static_cast<std::uint64_t>(mine.outside_mpi.size()));
    for (const auto& [rank, t] : mine.outside_mpi) bytes.put(rank), bytes.put(t.first), bytes.put(t.second);
    bytes.put(static_cast<std::uint64_t>(mine.threads.size()));
    for (const auto& [rank, n] : mine.threads) bytes.put(rank), bytes.put(n);
    UsefulTimes all;
    counted.clear();
    for (const std::vector<std::uint8_t>& each : exchange.gather_all(bytes.bytes())) {
      PartBytesReader in(each);
      for (const double v : in.take_all<double>()) all.useful.push_back(v);
      for (const std::uint8_t c : in.take_all<std::uint8_t>()) counted.push_back(c != 0);
      for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
        const auto rank = in.take<std::int64_t>();
        const auto thread = in.take<std::uint32_t>();
        all.outside_mpi[rank] = {thread, in.take<double>()};
      }
      for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
        const auto rank = in.take<std::int64_t>();
        all.threads[rank] = in.take<std::uint32_t>();
      }
    }
    return all;
  }
};

template <class Run>
Pop pop_of(const ActivityGraph& g, const Run& run) {
  Pop pop;
  pop.processes = processes_model(g, run);
  if (run.locations() == 0) return pop;
  // The ideal replays' lengths, and each phase's: one replay held at a time (13 bytes an event).
  const auto ideal_times = [&](bool ideal_openmp) {
    ReplayChanges ideal;
    ideal.network = ReplayChanges::Network::ideal;
    ideal.ideal_openmp = ideal_openmp;
    const ReplayResult r = run.replay(ideal);
    std::vector<double> times = {r.length()};
    for (const GraphPhase& phase : g.phases) times.push_back(run.span(phase, r.time).length());
    return times;
  };
  const std::vector<double> ideal_all = ideal_times(true);  // [0] the run, [1 + p] phase p
  // The ideal runtime frees only OpenMP synchronization: without any, the second replay would
  // give the first's times again (a pure MPI or OpenSHMEM run spares one of the analysis's four).
  const bool openmp =
      run.any(std::find(g.segment.begin(), g.segment.end(), SegmentKind::openmp) != g.segment.end());
  const std::vector<double> ideal_network = openmp ? ideal_times(false) : ideal_all;
  std::vector<bool> counted;
  UsefulTimes whole;
  if (g.phases.empty()) {
    whole = run.of_every_location(
        useful_times(
            g, [](std::int64_t) { return std::optional(std::pair(-INFINITY, INFINITY)); }, counted),
        counted);
    pop.run_time_ns = g.end_ns - g.start_ns;
    pop.ideal_time_ns = ideal_all[0];
    pop.ideal_mpi_time_ns = ideal_network[0];
  } else {
    whole.useful.assign(run.locations(), 0);
    std::vector<bool> any(whole.useful.size(), false);
    for (std::size_t p = 0; p < g.phases.size(); ++p) {
      const GraphPhase& phase = g.phases[p];
      std::map<std::int64_t, std::pair<double, double>> windows;
      for (const PhaseBounds& b : phase.ranks) windows[b.rank] = {g.time[b.begin], g.time[b.end]};
      const UsefulTimes u =
          run.of_every_location(useful_times(
                                    g,
                                    [&](std::int64_t rank) {
                                      const auto w = windows.find(rank);
                                      return w == windows.end() ? std::nullopt : std::optional(w->second);
                                    },
                                    counted),
                                counted);
      const PhaseSpan measured = run.span(phase, g.time);
      const double ideal_time = ideal_all[p + 1];
      const double ideal_mpi_time = ideal_network[p + 1];
      const Factors f = all_factors(u, counted, measured.length(), ideal_time, ideal_mpi_time);
      PopPhase& row = pop.phases.emplace_back();
      row.phase = p + 1;
      row.ranks = run.ranks(phase);
      row.begin_ns = measured.begin_ns;
      row.end_ns = measured.end_ns;
      row.overall = f.overall;
      row.mpi = f.mpi;
      row.openmp = f.openmp;
      row.ideal_time_ns = ideal_time;
      row.max_useful_ns = f.max_useful_ns;
      row.mean_useful_ns = f.mean_useful_ns;
      whole.add(u);
      for (std::size_t l = 0; l < any.size(); ++l) any[l] = any[l] || counted[l];
      pop.run_time_ns += measured.length();
      pop.ideal_time_ns += ideal_time;
      pop.ideal_mpi_time_ns += ideal_mpi_time;
    }
    counted = any;
    pop.paused_ns = std::max(0.0, g.end_ns - g.start_ns - pop.run_time_ns);
  }
  const Factors f = all_factors(whole, counted, pop.run_time_ns, pop.ideal_time_ns, pop.ideal_mpi_time_ns);
  pop.overall = f.overall;
  pop.mpi = f.mpi;
  pop.openmp = f.openmp;
  pop.max_useful_ns = f.max_useful_ns;
  pop.mean_useful_ns = f.mean_useful_ns;
  return pop;
}

}  // namespace

Pop pop_factors(const ActivityGraph& g, const NetworkModel& fitted) { return pop_of(g, WholeRun{g, fitted}); }

Pop pop_factors(const GraphPart& part, const NetworkModel& fitted, PartExchange& exchange) {
  return pop_of(part.graph, RunOfParts{part, fitted, exchange});
}

}  // namespace parperf::analysis
