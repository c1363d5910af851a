// OpenMP barrier and lock waits (wait_states.hpp): the waiting the OpenMP collector recorded with
// each barrier, lock and critical-section operation, on the thread that waited. A barrier's waiting
// is its `wait` (an explicit barrier) or its `sync` (an implicit one: the end of a work-sharing
// construct or region, docs/openmp.md); a lock's is its `wait` to acquire it.
//
// Who caused it comes from each operation's `match` (docs/format.md, "Events"):
//   - a barrier's is its team's region instance. The members of a team meet at its barriers in the
//     same order, so a thread's n-th barrier of an instance is every member's n-th: those operations
//     are one barrier instance, and the member that arrived last at it made the others wait;
//   - a lock's is the lock's wait id. Acquisitions of one lock follow each other: a thread that
//     waited to acquire it waited for the thread that acquired it before, which held it meanwhile.
// Traces without matches (0) still count their waits, with no culprit.
#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

#include "analysis/trace/timeline_merge.hpp"
#include "analysis/trace/wait_tally.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

std::optional<WaitPattern> openmp_pattern(std::uint32_t kind) {
  switch (static_cast<SiteKind>(kind)) {
    case SiteKind::omp_barrier:
    case SiteKind::omp_implicit_barrier:
    case SiteKind::omp_join_barrier:
    case SiteKind::omp_implementation_barrier:
      return WaitPattern::omp_barrier;
    case SiteKind::omp_lock:
    case SiteKind::omp_nest_lock:
    case SiteKind::omp_critical:
      return WaitPattern::omp_lock;
    default:
      return std::nullopt;
  }
}

// One thread's OpenMP wait operation, in its process's ticks.
struct WaitOperation {
  std::uint32_t thread = 0;
  std::uint32_t site = 0;
  std::uint64_t start = 0;     // a barrier: the thread's arrival
  std::uint64_t acquired = 0;  // a lock: when the thread got it
  std::uint64_t waited = 0;
};

// A barrier instance: its team's region instance and its place among the instance's barriers.
using BarrierKey = std::pair<std::int64_t, std::uint32_t>;

struct RankWaits {
  std::map<BarrierKey, std::vector<WaitOperation>> barriers;
  std::unordered_map<std::int64_t, std::vector<WaitOperation>> locks;  // by wait id
  std::vector<std::pair<WaitPattern, WaitOperation>> unmatched;        // no culprit to find
};

// Sorts one rank's OpenMP wait operations into barrier instances and lock acquisitions.
RankWaits collect(const RankTrace& rank, const std::unordered_map<std::uint32_t, WaitPattern>& patterns) {
  RankWaits waits;
  // Per thread, how many barriers of each region instance it has passed.
  std::unordered_map<std::uint32_t, std::unordered_map<std::int64_t, std::uint32_t>> passed;
  const format::TraceFile& t = *rank.trace;
  for (const format::TraceBlock& block : t.blocks) {  // each thread's blocks come in its order
    const std::uint32_t thread = block.header.thread;
    format::BlockEvents events(t, block);
    format::TraceEvent e;
    while (events.next(e)) {
      if (e.kind != format::TraceEventKind::operation) continue;
      const auto p = patterns.find(e.site);
      if (p == patterns.end()) continue;
      WaitOperation op{.thread = thread, .site = e.site, .start = e.ticks};
      if (p->second == WaitPattern::omp_barrier) {
        op.waited = e.wait + e.sync;
        if (e.match == 0)
          waits.unmatched.emplace_back(p->second, op);
        else
          waits.barriers[{e.match, passed[thread][e.match]++}].push_back(op);
      } else {
        op.waited = e.wait;
        op.acquired = e.ticks + e.wait;
        if (e.match == 0)
          waits.unmatched.emplace_back(p->second, op);
        else
          waits.locks[e.match].push_back(op);
      }
    }
  }
  return waits;
}

double ns(std::uint64_t ticks, double ns_per_tick) { return static_cast<double>(ticks) * ns_per_tick; }

void tally_barriers(const RankTrace& rank, const RankWaits& waits, double ns_per_tick, WaitTally& tally) {
  for (const auto& [key, members] : waits.barriers) {
    const auto last =
        std::max_element(members.begin(), members.end(),
                         [](const WaitOperation& a, const WaitOperation& b) { return a.start < b.start; });
    for (const WaitOperation& m : members) {
      std::optional<Culprit> cause;
      if (&m != &*last) cause = Culprit{rank.rank, last->thread};
      tally.add(WaitPattern::omp_barrier, rank, m.thread, m.site, ns(m.waited, ns_per_tick), cause);
    }
  }
}

void tally_locks(const RankTrace& rank, RankWaits& waits, double ns_per_tick, WaitTally& tally) {
  for (auto& [lock, acquisitions] : waits.locks) {
    std::stable_sort(acquisitions.begin(), acquisitions.end(),
                     [](const WaitOperation& a, const WaitOperation& b) { return a.acquired < b.acquired; });
    for (std::size_t i = 0; i < acquisitions.size(); ++i) {
      const WaitOperation& a = acquisitions[i];
      std::optional<Culprit> cause;
      if (i > 0 && acquisitions[i - 1].thread != a.thread)
        cause = Culprit{rank.rank, acquisitions[i - 1].thread};
      tally.add(WaitPattern::omp_lock, rank, a.thread, a.site, ns(a.waited, ns_per_tick), cause);
    }
  }
}

}  // namespace

void tally_openmp_waits(const TraceRun& traces, WaitTally& tally) {
  for (const RankTrace& rank : traces.ranks) {
    if (!rank.profile) continue;  // no site kinds to tell barriers from other operations
    std::unordered_map<std::uint32_t, WaitPattern> patterns;
    for (const format::Site& s : rank.profile->sites)
      if (const auto p = openmp_pattern(s.kind)) patterns[s.id] = *p;
    if (patterns.empty()) continue;
    const double ns_per_tick = analysis::ns_per_tick(*rank.trace);
    RankWaits waits = collect(rank, patterns);
    tally_barriers(rank, waits, ns_per_tick, tally);
    tally_locks(rank, waits, ns_per_tick, tally);
    for (const auto& [pattern, op] : waits.unmatched)
      tally.add(pattern, rank, op.thread, op.site, ns(op.waited, ns_per_tick), std::nullopt);
  }
}

}  // namespace parperf::analysis
