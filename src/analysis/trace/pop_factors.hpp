// The POP efficiency factors of a traced run (DESIGN.md section 10; docs/efficiency-model.md has
// the formulas and what each means). With T the run's time (first node to last) and, per location
// (a rank's thread), useful_l its computation (outside MPI and OpenSHMEM calls, OpenMP
// synchronization, idling between parallel regions):
//   load balance          LB    = mean_l useful_l / max_l useful_l
//   communication eff.    CommE = max_l useful_l / T
//   serialisation eff.    SerE  = max_l useful_l / T_ideal   (T_ideal: the replay on an ideal network
//                                                             and an ideal OpenMP runtime)
//   transfer eff.         TransE = T_ideal / T
//   parallel efficiency   PE    = LB x CommE = LB x SerE x TransE = mean_l useful_l / T
// The MPI part takes per rank its first thread's time outside MPI and OpenSHMEM calls instead of
// useful_l, and T_ideal of the ideal network only; the OpenMP part is each factor divided by its MPI
// part (the POP hybrid model: PE = PE_MPI x PE_OpenMP, and the same for every factor).
//
// Phases (parperf_control, MPI_Pcontrol, omp_control_tool): each phase gets the same factors over its
// span, with each location's time cut to its rank's phase, T its measured span and T_ideal its span
// in the ideal replay. The program's factors are then those of the recorded time: the phases' useful
// times, T and T_ideal summed (time while recording was off is no one's, as in the profile).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

struct PopFactors {
  double parallel_efficiency = 1;
  double load_balance = 1;
  double communication_efficiency = 1;
  std::optional<double> serialisation_efficiency;  // none without a trace
  std::optional<double> transfer_efficiency;
  friend bool operator==(const PopFactors&, const PopFactors&) = default;
};

// The factors of one phase.
struct PopPhase {
  std::size_t phase = 1;            // counted from 1
  std::size_t ranks = 0;            // that had it
  double begin_ns = 0, end_ns = 0;  // measured, on rank 0's clock
  PopFactors overall;
  std::optional<PopFactors> mpi, openmp;
  double ideal_time_ns = 0;
  double max_useful_ns = 0, mean_useful_ns = 0;
  double run_time_ns() const { return end_ns - begin_ns; }
  friend bool operator==(const PopPhase&, const PopPhase&) = default;
};

struct Pop {
  PopFactors overall;
  std::optional<PopFactors> mpi;     // runs with several ranks
  std::optional<PopFactors> openmp;  // runs with several threads in a rank
  double run_time_ns = 0;
  double ideal_time_ns = 0;       // T_ideal
  double ideal_mpi_time_ns = 0;   // the ideal network only
  std::string processes = "MPI";  // what the ranks' part is called: "MPI", "SHMEM" or "MPI+SHMEM"
  double max_useful_ns = 0;
  double mean_useful_ns = 0;
  std::vector<PopPhase> phases;  // empty when recording was never switched: the run is one phase
  double paused_ns = 0;          // with phases: the run's time outside them (run_time_ns leaves it out)
  friend bool operator==(const Pop&, const Pop&) = default;
};

// From the graph alone: the replays it needs are its own.
Pop pop_factors(const ActivityGraph& graph, const NetworkModel& fitted);
// The same factors from a part of the graph (graph_part.hpp), computed by every part at once: the
// whole graph's, to the bit, on every part.
Pop pop_factors(const GraphPart& part, const NetworkModel& fitted, PartExchange& exchange);

// The factors that need no trace, from per-processor useful times (the report's productive time)
// and the run's time: PE, LB, CommE.
PopFactors profile_pop_factors(const std::vector<double>& useful, double run_time);

}  // namespace parperf::analysis
