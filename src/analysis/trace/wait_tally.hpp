// Adds up wait states as the patterns find them (wait_states.hpp): per pattern, per call site,
// per waiting rank/thread and per causing rank. Internal to the wait-state analysis.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "analysis/trace/exact_sum.hpp"
#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/tuple_hash.hpp"
#include "analysis/trace/wait_states.hpp"

namespace parperf::analysis {

// Who made a waiter wait: a rank (MPI), or one thread of the waiter's rank (OpenMP).
struct Culprit {
  std::int64_t rank = 0;
  std::optional<std::uint32_t> thread{};
};

class WaitTally {
 public:
  WaitTally() = default;
  WaitTally(const WaitTally&) = delete;  // its sites' cache points into its own tables
  WaitTally& operator=(const WaitTally&) = delete;

  // `waiter` (a call of `rank`) lost `lost_ns` in `pattern`, because of `cause` when known.
  // Waits of no time are not counted.
  void add(WaitPattern pattern, const RankTrace& rank, std::uint32_t thread, std::uint32_t site,
           double lost_ns, std::optional<Culprit> cause);
  WaitStates result() const;

  // A part's tally (graph_part.hpp: the waits of its ranks), sent to the others and added to theirs:
  // the times are exact sums, so the run's come out the same whatever the parts and their order.
  void write(PartBytes& out) const;
  void add(PartBytesReader& in);

 private:
  struct Share {
    ExactSum lost;
    std::uint64_t instances = 0;
    void add(double lost_ns);
    void add(const Share& other);
    WaitShare result() const { return {lost.ns(), instances}; }
  };
  struct Pattern {
    Share total;
    std::map<std::pair<std::string, std::string>, Share> sites;  // by (location, name)
    std::map<std::pair<std::int64_t, std::uint32_t>, Share> waiting;
    std::map<std::pair<std::int64_t, std::int64_t>, Share> causes;  // by (rank, thread or -1)
  };
  std::array<Pattern, kWaitPatternCount> patterns_{};
  // Each (pattern, rank, site)'s share among its pattern's sites, found once: a site's location and
  // name are looked up in its rank's sites and formatted (a file name split from its path), which at
  // every wait of an 8-rank halo exchange took 1.1 % of its report's time.
  std::unordered_map<std::tuple<int, std::int64_t, std::uint32_t>, Share*, TupleHash> site_shares_;
};

// The patterns, by what they read.
void tally_message_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally);
void tally_collective_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally);
void tally_openmp_waits(const TraceRun& traces, WaitTally& tally);
void tally_window_lock_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally);

}  // namespace parperf::analysis
