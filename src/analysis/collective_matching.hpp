// Matches the collective calls of all ranks (DESIGN.md section 4: Synchronization and Time variation
// are defined per collective instance, over the ranks that took part in it).
//
// A communicator is the same on every member rank when (members_hash, ordinal, size) agree; one of
// its collective calls is identified by its sequence number on that communicator, never by its
// position in a rank's sample or by time: MPI orders the collectives of one communicator identically
// on every member, while the collectives of different communicators interleave differently on each
// rank. Each rank keeps a deterministic sample (every instance whose sequence is a multiple of its
// stride), so the ranks' samples share the instances whose sequence is a multiple of the largest
// stride. An instance is matched when every one of the communicator's `size` members holds it; a rank
// that ended early (crash, kill) lacks the later ones, which are then left out, with a warning.
//
// For a matched instance with arrivals a_p and departures l_p on rank 0's clock:
//   synchronization_p = max_q a_q − a_p            (potential loss: arriving early)
//   time_variation_p  = max_q l_q − l_p            (potential loss; none when a call is non-blocking)
//   real_sync_p       = min(l_p − a_p, max_q a_q − a_p)   (waiting for the last one; 0 non-blocking)
// Each value of rank p is scaled by collectives_p / (p's sampled instances the match could use), so
// the figures estimate the whole run; they are exact when every instance was kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/clock_correction.hpp"
#include "analysis/interval_tree.hpp"
#include "format/profile.hpp"

namespace parperf::analysis {

// How many matched instances per communicator the report shows.
inline constexpr std::size_t kShownInstances = 16;

struct CollectiveArrival {
  std::int64_t rank = 0;
  double arrive = 0;            // seconds since rank 0's start, on rank 0's clock
  std::optional<double> leave;  // none for a non-blocking call
};

struct MatchedInstance {
  std::uint64_t sequence = 0;
  std::string name;                         // the MPI function, as rank `arrivals[0].rank` called it
  std::vector<CollectiveArrival> arrivals;  // by rank
};

struct CommunicatorMatch {
  std::uint32_t size = 0;
  std::uint32_t ordinal = 0;
  std::uint64_t members_hash = 0;
  std::uint64_t collectives = 0;           // collective calls on it, the most any member counted
  std::uint64_t sampled = 0;               // distinct instances the members' samples could be matched on
  std::uint64_t matched = 0;               // of those, the ones every member holds
  std::vector<MatchedInstance> instances;  // the first kShownInstances matched, by sequence
};

// What the matched instances charge to one operation site of one location, scaled (seconds).
struct CollectiveCharge {
  Location location;
  std::uint32_t node = format::kNoParent;  // in the location's thread; kNoParent when unknown
  std::uint32_t site = 0;                  // in the rank's profile
  double synchronization = 0;
  double time_variation = 0;
  double real_sync = 0;
  // The longest real sync of one of its instances (not scaled): the SRC point's `wait max`. A
  // sampled run can only show the longest of the instances it kept.
  double real_sync_max = 0;
  double arrival_spread = 0;  // the widest max_q a_q − min_q a_q among its instances (not scaled)
  // Matched instances at this site, and those at which this location arrived strictly last (after
  // every other member; not scaled): whom the others waited for.
  std::uint64_t instances = 0;
  std::uint64_t last_arrivals = 0;
};

struct CollectiveMatching {
  std::vector<CommunicatorMatch> communicators;  // largest first
  std::vector<CollectiveCharge> charges;         // by location, node, site
  std::vector<std::string> warnings;
};

// `profiles`: at most one per rank.
CollectiveMatching match_collectives(const std::vector<format::Profile>& profiles,
                                     const ClockCorrection& clocks);

}  // namespace parperf::analysis
