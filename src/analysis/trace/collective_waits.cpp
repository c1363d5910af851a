// Wait at Barrier, Wait at N x N, Late Broadcast, Early Reduce and Wait at Fence (wait_states.hpp),
// from the matched collective instances (a window's fences are instances of its group).
#include <algorithm>
#include <string_view>

#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/wait_tally.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

// Rooted collectives in which data flows out of the root (the others wait for it to arrive) rather
// than into it (the root waits for the others).
bool from_root(const CollectiveInstance& c) {
  return is_kind(c.kind, SiteKind::mpi_broadcast) ||
         std::string_view(c.name).find("Scatter") != std::string_view::npos;
}

// What `member` lost waiting for the one that arrived at `arrival`, clipped to its call.
double lost_until(const CallSide& member, double arrival) {
  return std::min(arrival, member.end_ns) - member.start_ns;
}

void tally_member(const TraceRun& traces, WaitTally& tally, WaitPattern pattern, const CallSide& member,
                  double arrival, std::int64_t cause) {
  if (const RankTrace* rank = rank_trace(traces, member.rank))
    tally.add(pattern, *rank, member.thread, member.site, lost_until(member, arrival), Culprit{cause});
}

// Every member waits for the last to arrive (barrier, N x N).
void tally_all_wait_for_last(const TraceRun& traces, WaitTally& tally, WaitPattern pattern,
                             const CollectiveInstance& c) {
  const auto last =
      std::max_element(c.members.begin(), c.members.end(),
                       [](const CallSide& a, const CallSide& b) { return a.start_ns < b.start_ns; });
  for (const CallSide& member : c.members)
    if (&member != &*last) tally_member(traces, tally, pattern, member, last->start_ns, last->rank);
}

void tally_rooted(const TraceRun& traces, WaitTally& tally, const CollectiveInstance& c) {
  const auto root =
      std::find_if(c.members.begin(), c.members.end(), [&](const CallSide& m) { return m.rank == c.root; });
  if (root == c.members.end()) return;
  if (from_root(c)) {
    for (const CallSide& member : c.members)
      if (&member != &*root)
        tally_member(traces, tally, WaitPattern::late_broadcast, member, root->start_ns, root->rank);
    return;
  }
  const CallSide* last = nullptr;
  for (const CallSide& member : c.members)
    if (&member != &*root && (!last || member.start_ns > last->start_ns)) last = &member;
  if (last) tally_member(traces, tally, WaitPattern::early_reduce, *root, last->start_ns, last->rank);
}

// The pattern of an instance in which every member waits for the last.
WaitPattern all_wait_pattern(const CollectiveInstance& c) {
  if (is_kind(c.kind, SiteKind::mpi_barrier)) return WaitPattern::wait_at_barrier;
  if (is_kind(c.kind, SiteKind::mpi_one_sided_sync)) return WaitPattern::wait_at_fence;  // MPI_Win_fence
  return WaitPattern::wait_at_nxn;
}

}  // namespace

void tally_collective_waits(const TraceRun& traces, const Communication& communication, WaitTally& tally) {
  for (const CollectiveInstance& c : communication.collectives) {
    if (!c.blocking || c.members.size() < 2) continue;
    if (c.root >= 0)
      tally_rooted(traces, tally, c);
    else
      tally_all_wait_for_last(traces, tally, all_wait_pattern(c), c);
  }
}

}  // namespace parperf::analysis
