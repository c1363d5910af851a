#include "analysis/trace/pop_factors.hpp"

#include <algorithm>
#include <map>
#include <numeric>

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

Pop pop_factors(const ActivityGraph& g, const NetworkModel& fitted) {
  Pop pop;
  pop.run_time_ns = g.end_ns - g.start_ns;
  std::vector<double> useful(g.locations.size(), 0);
  std::map<std::int64_t, std::pair<std::uint32_t, double>> outside_mpi;  // rank -> (first thread, its time)
  std::map<std::int64_t, std::uint32_t> threads;
  for (std::size_t l = 0; l < g.locations.size(); ++l) {
    const GraphLocation& loc = g.locations[l];
    double outside = 0;
    // Segments' lengths, waiting included (a node's cost leaves out what it waited for).
    for (std::uint32_t k = loc.first + 1; k < loc.end; ++k) {
      const double length = g.time[k] - g.time[k - 1];
      if (g.segment[k] == SegmentKind::useful) useful[l] += length;
      if (g.segment[k] == SegmentKind::useful || g.segment[k] == SegmentKind::openmp ||
          g.segment[k] == SegmentKind::idle)
        outside += length;
    }
    ++threads[loc.rank];
    auto [it, added] = outside_mpi.try_emplace(loc.rank, loc.thread, outside);
    if (!added && loc.thread < it->second.first) it->second = {loc.thread, outside};
  }
  bool mpi = false, shmem = false;  // the locations' own segments (hubs stand for no call)
  for (const GraphLocation& l : g.locations)
    for (std::uint32_t k = l.first; k < l.end; ++k) {
      mpi |= g.segment[k] == SegmentKind::mpi;
      shmem |= g.segment[k] == SegmentKind::shmem;
    }
  pop.processes = shmem && mpi ? "MPI+SHMEM" : shmem ? "SHMEM" : "MPI";
  if (useful.empty()) return pop;
  pop.max_useful_ns = *std::max_element(useful.begin(), useful.end());
  pop.mean_useful_ns =
      std::accumulate(useful.begin(), useful.end(), 0.0) / static_cast<double>(useful.size());
  ReplayChanges ideal;
  ideal.network = ReplayChanges::Network::ideal;
  ideal.ideal_openmp = true;
  pop.ideal_time_ns = replay(g, fitted, ideal).length();
  ideal.ideal_openmp = false;
  pop.ideal_mpi_time_ns = replay(g, fitted, ideal).length();
  pop.overall = factors(useful, pop.run_time_ns, pop.ideal_time_ns);
  const bool several_ranks = outside_mpi.size() > 1;
  const bool several_threads =
      std::any_of(threads.begin(), threads.end(), [](const auto& t) { return t.second > 1; });
  if (several_ranks && several_threads) {
    std::vector<double> outside;
    for (const auto& [rank, t] : outside_mpi) outside.push_back(t.second);
    pop.mpi = factors(outside, pop.run_time_ns, pop.ideal_mpi_time_ns);
    pop.openmp = divided(pop.overall, *pop.mpi);
  } else if (several_ranks) {
    pop.mpi = pop.overall;
  } else if (several_threads) {
    pop.openmp = pop.overall;
  }
  return pop;
}

}  // namespace parperf::analysis
