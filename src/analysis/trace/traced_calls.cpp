#include "analysis/trace/traced_calls.hpp"

#include <optional>
#include <string_view>
#include <unordered_map>

#include "analysis/trace/trace_ticks.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

struct CommunicatorIdentity {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint32_t size = 0;
};

// Whether an OpenMP operation is a barrier or a lock wait (else none of the two).
std::optional<bool> openmp_barrier(std::uint32_t kind) {
  switch (static_cast<SiteKind>(kind)) {
    case SiteKind::omp_barrier:
    case SiteKind::omp_implicit_barrier:
    case SiteKind::omp_join_barrier:
    case SiteKind::omp_implementation_barrier:
      return true;
    case SiteKind::omp_lock:
    case SiteKind::omp_nest_lock:
    case SiteKind::omp_critical:
      return false;
    default:
      return std::nullopt;
  }
}

}  // namespace

RankCalls extract_calls(const RankTrace& rank, const ClockCorrection& clocks) {
  RankCalls out;
  out.rank = rank.rank;
  if (!rank.profile) return out;  // no site kinds nor communicators to read the events with
  std::unordered_map<std::uint32_t, const format::Site*> sites;
  for (const format::Site& s : rank.profile->sites) sites[s.id] = &s;
  std::unordered_map<std::uint32_t, CommunicatorIdentity> communicators;  // by the events' id (+1)
  for (const format::Communicator& c : rank.profile->mpi.communicators)
    communicators[c.id + 1] = {c.members_hash, c.ordinal, c.size};
  const double tick_ns = ns_per_tick(*rank.trace);

  auto streams = thread_streams(rank.trace);
  merge_timeline(streams, clocks, [&](const TimelineEvent& e) {
    if (e.event.kind != format::TraceEventKind::operation) return;
    const auto site = sites.find(e.event.site);
    if (site == sites.end()) return;
    const std::uint32_t kind = site->second->kind;
    if (const auto barrier = openmp_barrier(kind)) {
      // A barrier's waiting is its wait (explicit) or its sync (implicit: docs/openmp.md).
      const std::uint64_t waited = *barrier ? e.event.wait + e.event.sync : e.event.wait;
      if (waited)
        out.openmp_waits.push_back(
            {e.rank, e.thread, e.event.site, static_cast<double>(waited) * tick_ns, *barrier});
      return;
    }
    const auto communicator = communicators.find(e.event.communicator);
    if (e.event.communicator == 0 || communicator == communicators.end()) return;
    TracedCall call;
    call.side = {
        e.rank,       e.thread,
        e.event.site, kind,
        e.time_ns,    clocks.apply(e.rank, e.local_ns + static_cast<double>(e.event.duration) * tick_ns)};
    call.members_hash = communicator->second.members_hash;
    call.ordinal = communicator->second.ordinal;
    call.communicator_size = communicator->second.size;
    call.partner = e.event.partner;
    call.match = e.event.match;
    call.bytes = e.event.bytes;
    // MPI_Ibarrier, MPI_Ibcast, ...: the call only starts the collective.
    const std::string_view name = site->second->name;
    call.nonblocking_collective =
        format::is_mpi_collective_kind(kind) && name.size() > 5 && name.substr(0, 5) == "MPI_I";
    out.calls.push_back(call);
  });
  return out;
}

}  // namespace parperf::analysis
