// Two runs of one program compared (`parperf diff A B`): before and after a change, or at two
// processor counts. Every interval of either tree is matched with its counterpart by its identity
// path from the program (DESIGN.md section 2), so an interval that moved, was renamed or is entered
// through another parent is a different interval: it shows as vanished from A and new in B. The
// result holds both runs' characteristics per interval, their changes, and the order in which a
// reader should look at them. A pure function of two analyses; the reports render it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/run_data.hpp"

namespace parperf::analysis {

// The figures a comparison shows for an interval, in the order the reports give them.
enum class ComparedFigure : std::size_t {
  execution_time,
  total_time,
  productive_time,
  lost_time,
  insufficient_parallelism,  // the components of lost_time: from here ...
  communication,
  idle_time,
  desync,
  waiting,  // ... to here
  load_imbalance,
  synchronization,
  time_variation,
  startup,
  efficiency,
  processors,
  entries,
};
inline constexpr std::size_t kComparedFigureCount = 16;
inline constexpr std::array<ComparedFigure, kComparedFigureCount> kComparedFigures = {
    ComparedFigure::execution_time,
    ComparedFigure::total_time,
    ComparedFigure::productive_time,
    ComparedFigure::lost_time,
    ComparedFigure::insufficient_parallelism,
    ComparedFigure::communication,
    ComparedFigure::idle_time,
    ComparedFigure::desync,
    ComparedFigure::waiting,
    ComparedFigure::load_imbalance,
    ComparedFigure::synchronization,
    ComparedFigure::time_variation,
    ComparedFigure::startup,
    ComparedFigure::efficiency,
    ComparedFigure::processors,
    ComparedFigure::entries};
// The parts Lost time is the sum of (DESIGN.md section 4).
inline constexpr std::array<ComparedFigure, 5> kLostComponents = {
    ComparedFigure::insufficient_parallelism, ComparedFigure::communication, ComparedFigure::idle_time,
    ComparedFigure::desync, ComparedFigure::waiting};

double compared_value(const Characteristics& c, ComparedFigure figure);

// One step of an interval's path: what tells it from its siblings in every run of the program. The
// end line and the enclosing function are left out: a collector may miss a construct's end in one
// run, and symbolization may name the function in one run only.
struct IntervalStep {
  std::uint32_t kind = 0;  // format::SiteKind
  std::string name;
  std::string file;
  std::int64_t line = 0;
  std::int64_t value = 0;
  auto operator<=>(const IntervalStep&) const = default;
};

enum class IntervalStatus {
  matched,   // in both runs
  added,     // only in B ("new")
  vanished,  // only in A
};

// One lost-time component and how much it changed (B − A), in processor-seconds.
struct ComponentChange {
  ComparedFigure component = ComparedFigure::idle_time;
  double delta = 0;
};

struct IntervalChange {
  std::vector<IntervalStep> path;  // from the program's child down to the interval; empty: the program
  IntervalStatus status = IntervalStatus::matched;
  std::optional<std::size_t> index_a;  // in A's and B's tree() (and Analysis::intervals)
  std::optional<std::size_t> index_b;
  std::optional<Characteristics> a;  // absent in the run that did not execute the interval
  std::optional<Characteristics> b;
  // |Δ execution time| in seconds: what the change did to the interval's wall-clock duration, and so
  // at most what it did to the program's (see compare_runs).
  double impact = 0;
  double impact_share = 0;  // impact / A's program execution time (B's when A's is 0)
  // The lost-time component that changed most, when any changed.
  std::optional<ComponentChange> largest_lost_change;

  const IntervalStep* step() const { return path.empty() ? nullptr : &path.back(); }
  std::size_t level() const { return path.size(); }
  // B − A of a figure; a run without the interval counts as 0. Efficiency has no change unless both
  // runs executed the interval (an absent interval has no efficiency, not 0).
  std::optional<double> delta(ComparedFigure figure) const;
};

// What one run is, for the comparison's header.
struct RunSummary {
  std::string directory;
  std::vector<std::string> command;  // the program and its arguments; empty without run.json
  Unit unit = Unit::thread;
  std::int64_t processes = 0;  // the run's world size
  Characteristics program;     // the program interval
};

struct ProgramChange {
  bool processors_differ = false;
  // A's program execution time over B's: > 1 when B is faster. None when B's time is 0.
  std::optional<double> speedup;
  // With different processor counts: speedup × processors_A / processors_B, the share of the added
  // processors that turned into speed (1: perfect scaling). None with equal counts.
  std::optional<double> scaling_efficiency;
  double efficiency_delta = 0;                // B − A, a fraction
  std::vector<ComponentChange> lost_changes;  // the program's lost-time components, largest |Δ| first
};

struct RunComparison {
  RunSummary a;
  RunSummary b;
  ProgramChange program;
  // The program first, then every other interval of either run, largest impact first (ties: largest
  // |Δ lost time|, then A's tree order, then B's for intervals only B has).
  std::vector<IntervalChange> intervals;
  std::vector<std::string> warnings;  // different programs, different processor units
};

// The comparison of two analyses; the run summaries carry no directory and no command.
RunComparison compare_runs(const Analysis& a, const Analysis& b);

// The same, with the runs' directories and commands, warning when they ran different programs.
RunComparison compare_runs(const RunData& run_a, const Analysis& a, const RunData& run_b, const Analysis& b);

}  // namespace parperf::analysis
