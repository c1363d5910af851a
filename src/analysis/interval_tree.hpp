// One interval tree for the whole run, merged over all locations (process rank, thread).
//
// An interval is identified by its path of (kind, name, file, line, value) from the root, so the
// same site entered with different values gives different intervals, and two processes that
// numbered the same site differently still meet in one interval.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/time_breakdown.hpp"
#include "format/profile.hpp"

namespace parperf::analysis {

struct Location {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;  // the thread's index within its process
  auto operator<=>(const Location&) const = default;
};

struct IntervalIdentity {
  std::uint32_t kind = 0;  // parperf_kind
  std::string name;
  std::string file;
  std::int64_t line = 0;
  std::int64_t value = 0;
  auto operator<=>(const IntervalIdentity&) const = default;
};

// A user event's statistics on one location, events being matched by name.
struct EventFigures {
  std::string name;
  std::string description;
  std::uint64_t starts = 0;
  std::uint64_t ends = 0;  // completed start/end pairs
  std::uint64_t atomics = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::string first_description;
};

// One interval on one location. An entry still open when the profile was written (the program
// crashed or flushed mid-interval) counts as an entry lasting until then: `open_ns` is in the
// execution time and in min/max.
struct LocationStats {
  Location location;
  std::uint64_t count = 0;  // completed entries
  bool open = false;
  std::uint64_t sum_ns = 0;
  std::uint64_t open_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t os_user_ns = 0;  // inclusive: the interval and everything nested in it
  std::uint64_t os_sys_ns = 0;
  std::uint64_t iterations = 0;
  std::uint64_t iteration_sum_ns = 0;
  std::uint64_t iteration_min_ns = 0;
  std::uint64_t iteration_max_ns = 0;
  std::vector<EventFigures> events;
  TimeBreakdown breakdown;  // filled by collectors other than the annotation API (zero today)

  std::uint64_t entries() const { return count + (open ? 1 : 0); }
  std::uint64_t exec_ns() const { return sum_ns + open_ns; }
};

struct MergedInterval {
  IntervalIdentity identity;
  std::uint32_t level = 0;               // program = 0
  std::size_t parent = 0;                // index in IntervalTree::intervals; the root is its own parent
  std::vector<std::size_t> children;     // in order of first appearance
  std::vector<LocationStats> locations;  // sorted by location; only locations that have the node
};

struct IntervalTree {
  std::vector<MergedInterval> intervals;  // intervals[0] is the program; parents precede children
  std::vector<Location> locations;        // every location of the run, sorted
  std::map<std::int64_t, std::uint32_t> threads_per_rank;
};

IntervalTree build_interval_tree(const std::vector<format::Profile>& profiles);

}  // namespace parperf::analysis
