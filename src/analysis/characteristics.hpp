// The characteristics of one interval over its processors (DESIGN.md section 4), as pure
// functions of per-processor figures. Times are seconds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/time_breakdown.hpp"

namespace parperf::analysis {

// What one processor contributes to one interval.
struct ProcessorInput {
  std::int64_t processor = 0;           // the number reports show
  std::int64_t rank = 0;                // its process
  std::optional<std::uint32_t> thread;  // its thread; none when the processor is a whole process
  std::uint32_t process_threads = 1;    // threads it stands for that executed the interval (Threads)
  std::uint64_t entries = 0;
  double execution = 0;     // exec_p: wall-clock time in the interval
  TimeBreakdown breakdown;  // identified losses, productive split, potential losses
  // A process as a processor: time its threads spent idle because they finished before the
  // process's slowest thread (exec_p minus the mean of its threads' times). Zero for a thread.
  double idle_within = 0;
  double os_cpu_user = 0;
  double os_cpu_sys = 0;

  double lost() const { return breakdown.lost() + idle_within; }  // lost_p
  double productive() const { return execution - lost(); }        // cpu_p
};

struct Characteristics {
  double efficiency = 1.0;  // productive / total; 1 when nothing ran
  double execution_time = 0;
  std::uint64_t processors = 0;
  std::uint64_t threads = 0;  // threads that executed the interval, over all its processors
  double total_time = 0;
  double productive_time = 0;
  double productive_cpu = 0;
  double productive_sys = 0;
  double productive_io = 0;
  double lost_time = 0;  // insufficient parallelism + communication + idle + desync + waiting
  double insufficient_parallelism = 0;
  double insufficient_parallelism_user = 0;
  double insufficient_parallelism_sys = 0;
  double communication = 0;
  double communication_real_sync = 0;
  double communication_starts = 0;
  double desync = 0;   // OpenMP: waiting at the end of work-sharing constructs and parallel regions
  double waiting = 0;  // OpenMP: other waiting (barriers, locks, critical, ordered, taskwait)
  double idle_time = 0;
  double idle_within_processes = 0;  // the part of idle_time from threads inside a process (rank unit)
  double load_imbalance = 0;         // potential
  double synchronization = 0;        // potential
  double time_variation = 0;         // potential
  double overlap = 0;
  // MPI start-up and shut-down (time in MPI_Init and MPI_Finalize): not part of Total time.
  double startup = 0;
  double shutdown = 0;
  double os_cpu_user = 0;
  double os_cpu_sys = 0;
  std::uint64_t entries = 0;
};

Characteristics characterize(std::span<const ProcessorInput> processors);

// Total − (Productive + Lost): zero up to rounding when the inputs are consistent; a large value
// means the identified losses exceed a processor's time.
double accounting_gap(const Characteristics& c);

// One processor's share of the characteristics. Its idle time includes waiting for the slowest
// processor, so productive + lost equals the interval's Execution time on every processor and
// the rows add up to Total time.
struct ProcessorFigures {
  std::int64_t processor = 0;
  std::int64_t rank = 0;
  std::optional<std::uint32_t> thread;
  std::uint64_t entries = 0;
  double execution_time = 0;
  double productive_time = 0;
  double lost_time = 0;       // lost_p + (Execution − exec_p)
  double idle_time = 0;       // (Execution − exec_p) + idle_within
  double load_imbalance = 0;  // max_q cpu_q − cpu_p
  double insufficient_parallelism = 0;
  double communication = 0;
  double os_cpu_user = 0;
  double os_cpu_sys = 0;
};

std::vector<ProcessorFigures> processor_figures(std::span<const ProcessorInput> processors);

// The per-processor figures that have comparative (min / max / mean) forms, in report order.
enum class Figure : std::size_t {
  execution_time,
  productive_time,
  lost_time,
  idle_time,
  load_imbalance,
  insufficient_parallelism,
  communication,
  os_cpu_user,
  os_cpu_sys,
  entries,
};
inline constexpr std::size_t kFigureCount = 10;
inline constexpr std::array<Figure, kFigureCount> kFigures = {
    Figure::execution_time, Figure::productive_time, Figure::lost_time,
    Figure::idle_time,      Figure::load_imbalance,  Figure::insufficient_parallelism,
    Figure::communication,  Figure::os_cpu_user,     Figure::os_cpu_sys,
    Figure::entries};

double figure_value(const ProcessorFigures& p, Figure figure);

// Ties go to the lowest processor number. Without processors every value is 0 and there is no
// processor to name.
struct Extreme {
  double min = 0;
  std::optional<std::int64_t> min_processor;
  double max = 0;
  std::optional<std::int64_t> max_processor;
  double mean = 0;
};

struct Comparative {
  std::array<Extreme, kFigureCount> extremes;
  const Extreme& operator[](Figure f) const { return extremes[static_cast<std::size_t>(f)]; }
};

// One number of one processor: a figure of a thread or a process, a score of a rank.
struct ProcessorValue {
  std::int64_t processor = 0;
  double value = 0;
};

// The comparative form of one number over processors (DESIGN.md section 4): the minimum and the
// maximum with the processor where each is reached (the lowest processor number on ties) and the
// mean, summed in processor order. All zero, without processors, when `values` is empty.
Extreme compare_values(std::vector<ProcessorValue> values);

// Every figure of `processors` (in any order) in comparative form.
Comparative compare_processors(std::span<const ProcessorFigures> processors);

}  // namespace parperf::analysis
