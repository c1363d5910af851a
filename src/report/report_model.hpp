// The content of a report, computed once and rendered as text or JSON. Times are seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/call_path_profile.hpp"
#include "analysis/characteristics.hpp"
#include "analysis/collective_matching.hpp"
#include "analysis/findings.hpp"
#include "analysis/interval_totals.hpp"
#include "analysis/interval_tree.hpp"
#include "analysis/mpi_calls.hpp"
#include "analysis/one_sided_traffic.hpp"
#include "analysis/probe_compensation.hpp"
#include "analysis/processors.hpp"
#include "analysis/src_points.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "format/records.hpp"

namespace parperf::report {

struct ProfileEnd {
  std::int64_t rank = 0;
  std::string file;  // "profile.0.ppf"
  format::EndReason reason = format::EndReason::exit;
  std::uint32_t signal = 0;  // when reason is `signal`
};

// One rank's clock correction (clock_correction.hpp), in seconds.
struct ClockLine {
  std::int64_t rank = 0;
  bool corrected = false;
  std::optional<double> offset_init;
  std::optional<double> offset_finalize;
  double drift = 0;  // dimensionless
  // How far each offset and the drift can be off (half the exchanges' round trips: RankClock)
  std::optional<double> offset_init_error, offset_finalize_error;
  double drift_error = 0;
};

// What the MPI collector says about the run (rank 0's view, or the lowest rank that has one).
struct MpiSummary {
  std::string library;
  double latency = 0;             // seconds
  double bandwidth = 0;           // bytes per second; 0 when not measured
  std::int32_t thread_level = 0;  // MPI_THREAD_SINGLE 0 .. MPI_THREAD_MULTIPLE 3
  std::vector<ClockLine> clock;   // one per rank with MPI data, by rank
};

struct RunSummary {
  std::string directory;
  std::string command;
  std::string host;                      // where it ran (run.json); empty when unknown
  std::optional<double> started_unix_s;  // when `parperf run` started it (run.json)
  std::optional<double> wall_time;       // seconds from start to exit, as `parperf run` saw them
  std::int64_t processes = 0;            // processes whose profiles were analysed
  std::int64_t world_size = 0;           // processes the run had
  std::uint64_t threads = 0;             // threads over the analysed processes
  analysis::Unit unit = analysis::Unit::thread;
  std::vector<ProfileEnd> end_reasons;  // one per analysed profile, by rank
  std::vector<std::string> warnings;
  std::string openmp_runtime;  // the OpenMP runtime measured through OMPT; empty when none
  // `parperf run` ran a program built for GNU libgomp on LLVM's libomp (run.json): the measured
  // program ran on another OpenMP runtime than it does unmeasured, which the header says.
  bool openmp_runtime_substituted = false;
  // Ranks that left no profile (aborted, crashed, killed): the report covers the others.
  std::vector<std::int64_t> missing_ranks;  // at most analysis::kMaxListedMissingRanks
  std::int64_t missing_rank_count = 0;
  std::optional<analysis::RankTime> slowest_rank;  // only when several ranks were analysed
  std::optional<MpiSummary> mpi;                   // none when no rank had MPI data
  std::optional<std::int64_t> view_rank;           // --rank: the report covers this rank alone
  analysis::OneSidedTraffic traffic;               // one-sided traffic matrix (empty without)
  analysis::ProbeCompensation probe_compensation;  // what the figures leave out of parperf's own probes
};

// One line of the thread list that opens the protocol (as in the classic OpenMP analyzers).
struct ThreadLine {
  analysis::Location location;
  format::ThreadKind kind = format::ThreadKind::other;
  bool master = false;  // the thread that runs the program's sequential code and forks teams
  double parked = 0;    // seconds parked in the OpenMP runtime's pool
};

struct ReportInterval {
  analysis::IntervalIdentity identity;
  std::size_t tree_index = 0;  // in the analysed tree: what the samples name it by
  std::uint32_t level = 0;
  std::uint64_t count = 0;  // entries over all locations, open ones included
  bool open = false;        // an entry had not ended when a profile was written
  analysis::Characteristics characteristics;
  analysis::Comparative comparative;
  std::vector<analysis::ProcessorFigures> per_processor;  // restricted by --procs
  std::optional<analysis::IterationTotals> iterations;
  std::optional<analysis::LoopBalance> loop_balance;  // with iteration marks
  std::optional<analysis::Finding> loop_finding;      // its unbalanced_loop finding, if any
  std::vector<analysis::EventTotals> events;
  // MPI calls of the interval's subtree: per communication class, and per (rank, call site).
  std::vector<analysis::CommunicationClassFigures> communication_classes;
  std::vector<analysis::MpiCallFigures> mpi_calls;
  std::string diagnosis;  // one line naming the largest loss
  std::vector<ReportInterval> children;
};

struct Report {
  RunSummary run;
  // Normally one root, the program. With --intervals: the matching intervals, each under its
  // nearest matching ancestor; several roots when the program itself does not match.
  std::vector<ReportInterval> intervals;
  bool show_per_processor = false;  // --procs or --per-proc: the text protocol prints the rows
  std::vector<ThreadLine> threads;
  // Plain-language findings, worst first: the few synchronization points and losses that cost most.
  std::vector<std::string> summary;
  // The same findings as values (analysis/findings.hpp), in the same order: the JSON `findings`.
  std::vector<analysis::Finding> findings;
  std::vector<analysis::SrcPoint> src_points;  // most lost time first
  std::vector<analysis::LoopBalance> loops;    // every loop of the run, innermost first
  double program_total_time = 0;               // the program's Total time, for shares
  // The communicators whose collectives were matched across ranks, with their first instances.
  std::vector<analysis::CommunicatorMatch> collectives;
  // The sampled call paths by interval (`parperf run --sample`); `sampled` false without samples.
  analysis::SampleProfile samples;
  // The POP efficiency factors (docs/efficiency-model.md): the profile's, and the trace's when the run
  // has one; the text report shows them after the findings.
  std::optional<analysis::PopFactors> pop;
  std::optional<analysis::Pop> traced_pop;
};

}  // namespace parperf::report
