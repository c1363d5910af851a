// The analysis's judgments as values: what loses time, where, on what evidence, and how much fixing
// it would recover. Reports only put them into words (report/diagnosis.hpp for an interval's
// diagnosis, report/src_summary.hpp for the run's main findings); every threshold and every choice
// of what to say lives here (docs/diagnosis.md has the rule set as a table). A rule never gives a
// finding its evidence contradicts: each names the numbers it judged by (Finding::evidence).
//
// Estimated gain: for each finding, the processor time it describes as lost (or, for the potential
// losses at collectives, as lost to late arrivals), in seconds. Removing the cause recovers at most
// that much; it is an upper bound, since work moved off one processor lands on another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/characteristics.hpp"
#include "analysis/loop_balance.hpp"
#include "analysis/sampled_cause.hpp"
#include "analysis/src_points.hpp"

namespace parperf::analysis {

enum class FindingKind {
  // An interval's diagnosis: its largest loss, or why there is none to name.
  not_executed,
  no_time_recorded,
  no_significant_loss,
  idle_within_processes,    // threads inside a process finish at different times
  idle_between_processors,  // processors finish at different times
  // Waiting for others (idle, desync, OpenMP waiting) while the processors' productive times are
  // balanced and the threads were off the CPU: preemption, not unbalanced work. Also one of the
  // run's main findings, at an implicit or join barrier.
  preemption,
  insufficient_parallelism,
  communication,
  desync,
  openmp_waiting,
  // Notes that follow an interval's diagnosis.
  collective_arrival,  // processors arrive at / leave collectives at different times (potential)
  off_cpu,             // little of the time inside ran on a CPU
  // The run's main findings: an SRC point that loses time, by what happens there.
  unbalanced_barrier,      // the implicit barrier of a construct whose threads' work differs
  late_arrival_barrier,    // an implicit or join barrier the threads reach at different times
  critical_contention,     // threads wait to enter a critical section
  lock_contention,         // threads contend for a lock
  ordered_wait,            // threads wait for their ordered turn
  barrier_arrival,         // threads reach an explicit barrier at different times
  task_wait,               // threads wait for tasks to complete
  synchronization_loss,    // any other synchronization point
  mpi_collective_arrival,  // ranks reach an MPI collective at different times
  mpi_waits_for_partner,   // a rank waits in a call for its partner
  mpi_call_cost,           // time in the MPI calls themselves
  sequential_code,         // the program's insufficient parallelism (no Amdahl bound computable)
  amdahl_limit,            // the same, with the speedup the serial part allows at any count
  startup,                 // MPI_Init / shmem_init take a large share of the run
  mpi_setup,               // communicator, group and window creation: productive Sys that is set-up
  poor_spatial_locality,   // a function whose accesses are far apart (locality.json)
  threads_off_cpu,         // most of the threads' time in the run was off the CPU (threads_off_cpu.hpp)
  // A loop whose iterations (or chunks) or whose processors' shares are unbalanced (loop_balance.hpp):
  // an interval's note, and one of the run's main findings when balancing it would save enough.
  unbalanced_loop,
  // An interval that loses a large share of the program's time when no SRC point or loop finding says
  // why (annotated code: its idle time): the interval with its own largest loss (`explains`).
  interval_loss,
  // A traced run: the computation that made other locations wait (analysis/trace/delay_costs.hpp),
  // its location in `late_rank` (rank) and the evidence `thread`, its interval in `interval`.
  delay_cause,
};

// What would recover the loss, when the analysis knows of a usual remedy.
enum class Remedy {
  none,
  dynamic_schedule,          // a loop's implicit barrier: schedule(dynamic) or (guided)
  shorten_critical_section,  // or use atomics or reductions
  cost_aware_partition,      // a loop run by one processor: split its iterations by cost, not count,
                             // when it is parallelised (or schedule(dynamic))
  fewer_threads_than_cores,  // preemption: no more threads than free cores, or a quiet machine
  unit_stride_access,        // poor spatial locality: walk arrays in memory order (loop interchange)
};

// One number a rule judged by, under a stable name (the JSON `evidence` object's keys,
// docs/diagnosis.md). Keys are string literals.
struct Evidence {
  std::string_view key;
  double value = 0;
};

// A section of the program that runs on one processor while the others wait: an interval outside
// parallel regions, holding none, that one thread executed (thread unit).
struct SerialSection {
  IntervalIdentity identity;
  double execution_time = 0;  // seconds
};

// A function of the locality result (format/locality_file.hpp) as a finding names it.
struct FunctionPlace {
  std::string name;
  std::string file;
  std::int64_t line = 0;
};

struct Finding {
  FindingKind kind = FindingKind::no_significant_loss;
  Remedy remedy = Remedy::none;

  // What it concerns, beyond the interval whose diagnosis holds it (IntervalAnalysis) or the
  // program (the run's main findings): the SRC point with its figures (SRC findings, the point
  // naming its interval), the processors whose execution times differ most
  // (idle_between_processors), the rank that waits most and its partners (mpi_waits_for_partner).
  std::optional<SrcPoint> src_point;
  std::optional<std::int64_t> fastest_processor;
  std::optional<std::int64_t> slowest_processor;
  std::optional<RankAtSite> waiting_rank;
  std::optional<LoopBalance> loop;                // unbalanced_loop: the loop with its figures
  std::optional<RankAtSite> late_rank;            // mpi_collective_arrival: the rank the others wait for
  std::vector<SerialSection> serial_sections;     // amdahl_limit, sequential_code: the longest, first
  std::optional<FunctionPlace> function;          // poor_spatial_locality
  std::optional<OperationIdentity> startup_call;  // startup: the call that started the model
  // preemption as an interval's diagnosis: the loss it explains (idle, desync or OpenMP waiting);
  // interval_loss: the interval's own largest loss, whose fields (processors, spread) this finding keeps.
  FindingKind explains = FindingKind::no_significant_loss;
  std::optional<IntervalIdentity> interval;  // interval_loss: the interval
  // Findings where processors wait for others, in a sampled run: the functions the late processors
  // spend their extra time in (sampled_findings.hpp); none when the samples cannot say.
  std::optional<SampledCause> sampled_cause;

  // Evidence, in seconds unless said otherwise.
  double share = 0;             // the loss over the base Total time (the interval's, or the program's)
  double efficiency = 0;        // no_significant_loss
  double execution_spread = 0;  // idle_between_processors: slowest − fastest execution
  bool imbalance_explains_idle = false;   // idle_between_processors: productive times differ as much
  double real_sync = 0;                   // communication: waiting for partners
  double starts = 0;                      // communication: in the calls themselves
  std::optional<double> synchronization;  // collective_arrival, when significant
  std::optional<double> time_variation;   // collective_arrival, when significant
  double on_cpu_share = 0;                // off_cpu, threads_off_cpu: OS CPU time over the time inside

  double estimated_gain = 0;  // seconds of processor time (see the top of this file)
  // A traced run: what the what-if replay (analysis/trace/what_if.hpp) predicts removing the cause
  // shortens the run by (seconds of run time), and the change it replayed ("'work' balanced").
  std::optional<double> replayed_gain;
  std::string replay{};
  std::vector<Evidence> evidence;  // every number the rule judged by, named

  // The evidence named `key`; 0 when the rule did not record it.
  double evidence_value(std::string_view key) const;
};

// An interval's diagnosis: its largest loss first, then the notes that apply.
std::vector<Finding> diagnose(const Characteristics& c, const Comparative& comparative);

// The run's main findings, worst first: MPI start-up when it dominates the run, the few SRC points
// that lose most of the program's Total time, then the loops whose balance would save a significant
// share of it, then its insufficient parallelism (with the Amdahl bound and `serial_sections`), then
// MPI set-up calls that take a significant share; `points` most lost time first.
std::vector<Finding> main_findings(const Characteristics& program, const std::vector<SrcPoint>& points,
                                   const std::vector<LoopBalance>& loops = {},
                                   const std::vector<SerialSection>& serial_sections = {});

// The serial sections of `tree` (see SerialSection), longest first; `characteristics` by interval
// index. None unless the program has several processors.
std::vector<SerialSection> serial_sections(const IntervalTree& tree,
                                           const std::vector<Characteristics>& characteristics);

// A loop worth a finding: its iterations are unbalanced (D > α · T_mean), or its processors' shares
// are (max_p T_p − min_p T_p > α · mean_p T_p). Estimated gain: LoopBalance::balance_gain (0 for a
// loop one processor runs, whose remedy is then a cost-aware partition when it is parallelised);
// `base_total_time` is the Total time its share is of. None for a balanced loop.
std::optional<Finding> unbalanced_loop(const LoopBalance& loop, double base_total_time);

}  // namespace parperf::analysis
