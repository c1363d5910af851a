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
#include <optional>
#include <string>
#include <vector>

#include "analysis/site_table.hpp"
#include "analysis/time_breakdown.hpp"
#include "format/profile.hpp"

namespace parperf::analysis {

struct Location {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;  // the thread's index within its process
  auto operator<=>(const Location&) const = default;
};

struct IntervalIdentity {
  std::uint32_t kind = 0;  // format::SiteKind
  std::string name;
  std::string file;
  std::int64_t line = 0;
  std::int64_t value = 0;
  std::int64_t end_line = 0;  // where the construct ended, when a collector saw it (0 if unknown)
  std::string function{};     // the enclosing function, for sites found at a code address
  auto operator<=>(const IntervalIdentity&) const = default;
};

// An operation site (a synchronization: DESIGN.md's SRC point candidates), matched by identity
// across locations. A construct's implicit or join barrier names its construct's kind.
struct OperationIdentity {
  std::uint32_t kind = 0;  // format::SiteKind
  std::string name;
  std::string file;
  std::int64_t line = 0;
  std::string function;
  std::uint32_t construct_kind = 0;  // for an implicit or join barrier; 0 otherwise
  auto operator<=>(const OperationIdentity&) const = default;
};

// One operation site's statistics on one location within one interval (not its subtree).
struct OperationFigures : format::DurationStats {  // count: calls
  OperationIdentity identity;
  std::uint64_t wait_ns = 0;  // MPI: the part spent waiting for the partner (Real_sync)
  std::uint64_t wait_max_ns = 0;
  std::uint64_t sync_ns = 0;
  std::uint64_t sync_max_ns = 0;
  std::uint64_t bytes = 0;
  // MPI: partners in MPI_COMM_WORLD (format::kNoPartner when none), non-blocking overlap, and the
  // last call's time stamps on the location's own clock (ns since its process started).
  std::int64_t partner_min = format::kNoPartner;
  std::int64_t partner_max = format::kNoPartner;
  std::uint64_t partner_set = 0;
  std::uint64_t overlap_ns = 0;
  std::uint64_t last_begin_ns = 0;
  std::uint64_t last_end_ns = 0;
  // Filled by attribute_mpi (mpi_attribution.hpp), in seconds: the potential losses of the matched
  // collective instances, the widest spread of arrivals among them, and the last call's time stamps
  // on rank 0's clock.
  double synchronization = 0;
  double time_variation = 0;
  double arrival_spread = 0;
  std::uint64_t matched_instances = 0;  // collectives: CollectiveCharge::instances, last_arrivals
  std::uint64_t last_arrivals = 0;
  double last_begin = 0;
  double last_end = 0;
};

// A user event's statistics on one location, events being matched by name.
struct EventFigures : format::DurationStats {  // count: completed start/end pairs
  std::string name;
  std::string description;
  std::uint64_t starts = 0;
  std::uint64_t atomics = 0;
  std::string first_description;
};

// One interval on one location. An entry still open when the profile was written (the program
// crashed or flushed mid-interval) counts as an entry lasting until then: `open_ns` is in the
// execution time and in min/max.
struct LocationStats : format::DurationStats {  // count: completed entries; min/max include an open one
  Location location;
  bool open = false;
  std::uint64_t open_ns = 0;
  std::uint64_t os_user_ns = 0;  // inclusive: the interval and everything nested in it
  std::uint64_t os_sys_ns = 0;
  format::DurationStats iterations;  // loop iteration marks
  // Their distribution (profiles of format 3.3 on), and the iterations of nodes that had none (older
  // profiles): loop balance gives percentiles and a standard deviation only when that is 0.
  std::optional<format::IterationHistogram> iteration_histogram;
  std::uint64_t iterations_without_histogram = 0;
  std::vector<EventFigures> events;
  std::vector<OperationFigures> operations;
  // Only the path to a parallel region this location joined as a team member: its time is that of
  // its children (openmp_attribution.hpp fills it in).
  bool context = false;
  // Time attributed to the location although it was not measured there: a team member's absence
  // while the region's master ran sequential code or waited for the team (openmp_attribution.hpp).
  std::uint64_t attributed_ns = 0;
  TimeBreakdown breakdown;  // losses identified by the collectors (OpenMP waits and the like)

  std::uint64_t entries() const { return count + (open ? 1 : 0); }
  std::uint64_t exec_ns() const { return sum_ns + open_ns + attributed_ns; }
  bool participated() const { return entries() > 0 || (context && exec_ns() > 0); }
};

struct MergedInterval {
  IntervalIdentity identity;
  std::uint32_t level = 0;               // program = 0
  std::size_t parent = 0;                // index in IntervalTree::intervals; the root is its own parent
  std::vector<std::size_t> children;     // in order of first appearance
  std::vector<LocationStats> locations;  // sorted by location; only locations that have the node
};

// What a location's process said about the thread behind it.
struct ThreadFacts {
  format::ThreadKind kind = format::ThreadKind::other;
  std::uint64_t parked_ns = 0;  // parked in the OpenMP runtime's pool, outside any team
};

struct IntervalTree {
  std::vector<MergedInterval> intervals;  // intervals[0] is the program; parents precede children
  std::vector<Location> locations;        // every location of the run, sorted
  std::map<Location, ThreadFacts> thread_facts;
  std::map<std::int64_t, std::uint32_t> threads_per_rank;
  // For each location, the merged interval of each of its thread's nodes (by node index): what
  // records that name a node (collective instances) are attributed to.
  std::map<Location, std::vector<std::size_t>> node_intervals;
};

// `sites`: where symbolization put the sites found at code addresses (site_resolution.hpp); without
// it, sites are where their files say.
IntervalTree build_interval_tree(const std::vector<format::Profile>& profiles, const SiteTable& sites = {});

// The identity under which the tree merges the operations of `profile`'s site `site`.
OperationIdentity operation_identity(const format::Profile& profile, std::uint32_t site,
                                     const SiteTable& sites = {});

}  // namespace parperf::analysis
