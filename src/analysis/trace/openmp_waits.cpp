// OpenMP barrier and lock waits (wait_states.hpp): the waiting the OpenMP collector recorded with
// each barrier, lock and critical-section operation, on the thread that waited. A barrier's waiting
// is its `wait` (an explicit barrier) or its `sync` (an implicit one: the end of a work-sharing
// construct or region, docs/openmp.md); a lock's is its `wait` to acquire it.
#include <unordered_map>

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

}  // namespace

void tally_openmp_waits(const TraceRun& traces, WaitTally& tally) {
  for (const RankTrace& rank : traces.ranks) {
    if (!rank.profile) continue;  // no site kinds to tell barriers from other operations
    std::unordered_map<std::uint32_t, WaitPattern> patterns;
    for (const format::Site& s : rank.profile->sites)
      if (const auto p = openmp_pattern(s.kind)) patterns[s.id] = *p;
    if (patterns.empty()) continue;
    const format::TraceFile& t = *rank.trace;
    const double ticks_ns = ns_per_tick(t);
    for (const format::TraceBlock& block : t.blocks)
      for (const format::TraceEvent& e : format::events_of(t, block)) {
        if (e.kind != format::TraceEventKind::operation) continue;
        const auto p = patterns.find(e.site);
        if (p == patterns.end()) continue;
        const std::uint64_t waited = p->second == WaitPattern::omp_barrier ? e.wait + e.sync : e.wait;
        tally.add(p->second, rank, block.header.thread, e.site, static_cast<double>(waited) * ticks_ns,
                  std::nullopt);
      }
  }
}

}  // namespace parperf::analysis
