// Figures of one merged interval summed over all the locations that have it: entries, loop
// iterations and user events. (The characteristics, which depend on the processor unit, are in
// characteristics.hpp.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/interval_tree.hpp"

namespace parperf::analysis {

struct IterationTotals {
  std::uint64_t count = 0;
  double total = 0;  // seconds
  double mean = 0;
  double min = 0;
  double max = 0;
};

struct EventTotals {
  std::string name;
  std::string description;
  std::uint64_t starts = 0;
  std::uint64_t ends = 0;
  std::uint64_t atomics = 0;
  double total = 0;  // seconds, over completed start/end pairs
  double mean = 0;
  double min = 0;
  double max = 0;
  std::string first_description;  // of the lowest location that has one
};

struct IntervalTotals {
  std::uint64_t count = 0;  // entries over all locations, open ones included
  bool open = false;        // some location had an entry still open when its profile was written
  std::optional<IterationTotals> iterations;  // only when loop iteration marks exist
  std::vector<EventTotals> events;            // in order of first appearance
};

IntervalTotals interval_totals(const MergedInterval& interval);

}  // namespace parperf::analysis
