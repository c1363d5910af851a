#include "analysis/trace/node_counting.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>

namespace parperf::analysis::graph_points {

void NodeCounter::begin(const std::vector<std::unique_ptr<ThreadEvents>>& streams) {
  ranks_.clear();
  streams_.clear();
  ended_ = false;
  for (const RankTrace& rank : traces_.ranks) {
    RankFacts& r = ranks_.emplace_back(RankFacts{SiteIndex(rank.profile), {}});
    if (!rank.profile) continue;
    for (const format::Site& s : rank.profile->sites) {
      SiteFacts f;
      f.operation = operation_points(s.kind) > 0;
      f.points = static_cast<std::uint8_t>(operation_points(s.kind));
      f.keeps_match = keeps_match(s.kind);
      f.task_create = is_kind(s.kind, SiteKind::omp_task_create);
      f.mpi_collective = format::is_mpi_instance(s.kind, s.name);
      f.openmp_barrier = is_openmp_barrier(s.kind);
      if (format::is_shmem_kind(s.kind)) {
        f.shmem_barrier_all = s.name == "shmem_barrier_all" || s.name == "shmem_sync_all";
        f.shmem_set_collective = !f.shmem_barrier_all && is_shmem_set_collective(s.kind);
      }
      r.facts.push_back(f);
    }
  }
  // The streams come rank by rank, in the ranks' order (all_thread_streams).
  std::size_t r = 0;
  for (const auto& stream : streams) {
    while (r < traces_.ranks.size() && traces_.ranks[r].rank != stream->rank()) ++r;
    if (r == traces_.ranks.size()) throw std::logic_error("node counting: a stream of no rank of the run");
    streams_.emplace_back().rank = r;
  }
}

void NodeCounter::event(std::size_t stream, const format::TraceEvent& e) {
  StreamCount& c = streams_[stream];
  ++c.size.events;
  const RankFacts& rank = ranks_[c.rank];
  const std::uint32_t slot = rank.sites.slot(e.site);
  const SiteFacts* s = slot == SiteIndex::kNone ? nullptr : &rank.facts[slot];
  switch (e.kind) {
    case format::TraceEventKind::enter:
    case format::TraceEventKind::leave:
      c.size.points += s ? 1 : 0;
      return;
    case format::TraceEventKind::recording_off:
    case format::TraceEventKind::recording_on:
      ++c.size.points;
      return;
    case format::TraceEventKind::operation:
      break;
    default:
      return;
  }
  if (!s) return;
  c.size.points += s->points;
  c.size.operations += s->operation ? 1 : 0;
  c.size.matches += s->operation && s->keeps_match ? 1 : 0;
  if (s->task_create && e.match != 0) ++c.size.points;
  // The bound on the hubs (counts()).
  if (e.communicator != 0 && s->mpi_collective) ++c.collective_calls[e.communicator];
  if (s->openmp_barrier && e.match != 0) c.barriers.push_back(e.match);
  c.barriers_all += s->shmem_barrier_all ? 1 : 0;
  c.set_calls += s->shmem_set_collective ? 1 : 0;
}

// The most hubs the linking can add, from the events before any instance is matched; each bound is
// met by a complete run:
//  - An MPI collective's instance on a communicator: at most as many as its most calling member made.
//  - An OpenMP barrier's (the k-th barrier of a parallel region's instance, by the threads of a rank
//    that passed it): per region instance, as many as the thread that passed the most.
//  - shmem_barrier_all and shmem_sync_all (the n-th call of every PE): as many as the PE that called
//    them most.
//  - A collective over an active set: it joins two or more PEs, so at most half of its calls.
NodeCounts NodeCounter::counts() const {
  NodeCounts counts;
  // By communicator (members' hash, ordinal): the most collective calls one rank made on it.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> most_collective_calls;
  std::uint64_t openmp_barriers = 0, most_barriers_all = 0, set_calls = 0;
  std::size_t s = 0;
  for (std::size_t r = 0; r < traces_.ranks.size(); ++r) {
    counts.rank_begin.push_back(counts.locations.size());
    std::unordered_map<std::uint32_t, std::uint64_t> collective_calls;  // the rank's, by the events' id
    // Flat, not maps (a run of tiny parallel regions has one instance a region, hundreds of
    // thousands): each thread's count of each region instance's barriers.
    std::vector<std::pair<std::int64_t, std::uint64_t>> rank_barriers;
    for (; s < streams_.size() && streams_[s].rank == r; ++s) {
      const StreamCount& c = streams_[s];
      counts.locations.push_back(c.size);
      counts.nodes += c.size.points;
      for (const auto& [id, calls] : c.collective_calls) collective_calls[id] += calls;
      std::vector<std::int64_t> barriers = c.barriers;
      std::sort(barriers.begin(), barriers.end());
      for (std::size_t i = 0, n = 0; i < barriers.size(); i += n) {
        n = 1;
        while (i + n < barriers.size() && barriers[i + n] == barriers[i]) ++n;
        rank_barriers.emplace_back(barriers[i], n);
      }
      most_barriers_all = std::max(most_barriers_all, c.barriers_all);
      set_calls += c.set_calls;
    }
    std::sort(rank_barriers.begin(), rank_barriers.end());  // the most of a region: its last
    for (std::size_t i = 0; i < rank_barriers.size(); ++i)
      if (i + 1 == rank_barriers.size() || rank_barriers[i + 1].first != rank_barriers[i].first)
        openmp_barriers += rank_barriers[i].second;
    if (const format::Profile* profile = traces_.ranks[r].profile)
      for (const format::Communicator& c : profile->mpi.communicators)
        if (const auto calls = collective_calls.find(c.id + 1); calls != collective_calls.end()) {
          std::uint64_t& most = most_collective_calls[std::pair(c.members_hash, c.ordinal)];
          most = std::max(most, calls->second);
        }
  }
  counts.nodes += openmp_barriers + most_barriers_all + set_calls / 2;
  for (const auto& [communicator, calls] : most_collective_calls) counts.nodes += calls;
  return counts;
}

NodeCounts count_nodes(const TraceRun& traces) {
  NodeCounter counter(traces);
  auto streams = all_thread_streams(traces);
  counter.begin(streams);
  double local = 0;
  format::TraceEvent e;
  for (std::size_t i = 0; i < streams.size(); ++i)
    while (streams[i]->next(local, e)) counter.event(i, e);
  counter.end();
  return counter.counts();
}

}  // namespace parperf::analysis::graph_points
