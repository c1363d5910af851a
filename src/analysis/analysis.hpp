// The efficiency analysis of a run, in one call: `analyze(run, options)` symbolizes the sites,
// merges the interval trees of all locations, corrects the clocks and matches the collectives,
// attributes the MPI and OpenMP measurements, computes every interval's characteristics and
// comparative figures, ranks the SRC points and draws the findings. It reads nothing but `run`,
// changes nothing in it and prints nothing; the reports select from the result and render it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/call_path_profile.hpp"
#include "analysis/characteristics.hpp"
#include "analysis/findings.hpp"
#include "analysis/interval_totals.hpp"
#include "analysis/interval_tree.hpp"
#include "analysis/loop_balance.hpp"
#include "analysis/mpi_attribution.hpp"
#include "analysis/mpi_calls.hpp"
#include "analysis/one_sided_traffic.hpp"
#include "analysis/probe_compensation.hpp"
#include "analysis/processors.hpp"
#include "analysis/run_data.hpp"
#include "analysis/site_table.hpp"
#include "analysis/src_points.hpp"

namespace parperf::analysis {

// What changes the figures (options that only choose what to show belong to the reports).
struct AnalysisOptions {
  std::optional<Unit> unit;  // what a processor is; absent: default_unit of the run
  // The view of one process, its threads being the processors (the unit is then `thread`).
  std::optional<std::int64_t> rank;
  // Loop balance: a loop is balanced when its balance degree D is at most alpha · T_mean.
  double balance_alpha = kDefaultBalanceAlpha;
  // Take the runtime's own probe costs out of interval and iteration times (probe_compensation.hpp).
  bool compensate_probes = true;
  // Sampled call paths: keep the functions of MPI and OpenSHMEM below the program's calls into them
  // (user_call_path.hpp); by default a wait in MPI_Recv is MPI_Recv's.
  bool library_internals = false;
};

// One interval of the analysed tree (Analysis::tree(), same index).
struct IntervalAnalysis {
  Characteristics characteristics;
  Comparative comparative;
  std::vector<ProcessorFigures> processors;  // every processor that executed it, by number
  IntervalTotals totals;
  // MPI calls of the interval's subtree: per (rank, call site), and per communication class.
  std::vector<MpiCallFigures> mpi_calls;
  std::vector<CommunicationClassFigures> communication_classes;
  std::vector<Finding> diagnosis;           // its largest loss first, then notes (findings.hpp)
  std::optional<LoopBalance> loop_balance;  // when the interval has iteration marks
};

struct Analysis {
  // Where symbolization put the sites found at code addresses; its warnings name the modules that
  // could not be read.
  SiteTable sites;
  IntervalTree whole_run;                   // merged over every location and attributed
  MpiAnalysis mpi;                          // clocks and matched collectives, with their warnings
  std::optional<std::int64_t> view_rank;    // AnalysisOptions::rank
  std::optional<IntervalTree> rank_tree;    // rank_view(whole_run, *view_rank) when there is one
  Unit unit = Unit::thread;                 // what a processor is in the figures below
  std::vector<IntervalAnalysis> intervals;  // by index in tree()
  std::vector<SrcPoint> src_points;         // of tree(), most lost time first
  std::vector<Finding> findings;            // the run's main findings, worst first
  std::vector<std::size_t> loops;           // the loop intervals (index in tree()), innermost first
  std::optional<RankTime> slowest_rank;     // over the whole run, when it has several ranks
  OneSidedTraffic traffic;                  // who wrote and read whose memory (one-sided models)
  ProbeCompensation probe_compensation;     // what was taken out of the times for parperf's probes
  SampleProfile samples;                    // the sampled call paths (`parperf run --sample`), by interval

  // The tree the figures describe: the whole run, or one rank's view of it.
  const IntervalTree& tree() const { return rank_tree ? *rank_tree : whole_run; }
  // The program's Total time (the base of the findings' shares); 0 without a program interval.
  double program_total_time() const {
    return intervals.empty() ? 0 : intervals[0].characteristics.total_time;
  }
};

// Throws std::invalid_argument when `options.rank` names a rank the run has no profile of.
Analysis analyze(const RunData& run, const AnalysisOptions& options = {});

}  // namespace parperf::analysis
