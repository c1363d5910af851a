// Which locations form the processors of a report, and what each processor contributes to an
// interval (DESIGN.md section 2: a processor is a process when the run has several, else a thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "analysis/characteristics.hpp"
#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

enum class Unit { thread, rank };

// `rank` when the run has more than one process, else `thread`.
Unit default_unit(std::int64_t process_count);
std::string_view unit_name(Unit unit);  // "thread" / "rank"
std::optional<Unit> parse_unit(std::string_view name);

// The processor `location` belongs to, numbered as below.
std::int64_t processor_number(const IntervalTree& tree, Location location, Unit unit);

// The processors that executed `interval` (entries > 0), ordered by processor number.
//
// Numbering: in thread unit, the thread index when the tree has one process, else the position of
// the (rank, thread) location among all locations of the run; in rank unit, the rank.
//
// In rank unit, process p with threads T_p in the interval is one processor with
//   exec_p = max_t exec_t,  cpu_p = (Σ_t cpu_t) / |T_p|,
// each identified loss and productive part averaged over T_p, and the rest, exec_p minus the mean of
// exec_t, counted as idle time within the process: threads that finished early wait for the slowest.
// Entries, OS CPU times and the potential losses (synchronization, time variation, overlap) are
// summed over T_p. In a hybrid run the average gives the rank its master's communication: the
// OpenMP attribution charges the other threads' absence while the master communicates outside
// parallel regions as communication too.
std::vector<ProcessorInput> processor_inputs(const IntervalTree& tree, const MergedInterval& interval,
                                             Unit unit);

struct RankTime {
  std::int64_t rank = 0;
  double execution_time = 0;  // seconds: its longest thread's time in the program
  double spread = 0;          // seconds: execution_time minus the fastest rank's
};

// The rank whose program took longest (the lowest such rank on a tie): the one the others wait for
// at the end when `spread` is worth naming (kRankSpreadWorthNaming). None without a program
// interval or without locations in it.
std::optional<RankTime> slowest_rank(const IntervalTree& tree);

}  // namespace parperf::analysis
