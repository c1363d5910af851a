#include "analysis/trace/node_counting.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "analysis/trace/site_index.hpp"
#include "analysis/trace/timeline_merge.hpp"

namespace parperf::analysis::graph_points {
namespace {

// The most hubs the linking can add, counted from the events before any instance is matched
// (count_nodes): each bound is met by a complete run.
//  - An MPI collective's instance on a communicator: at most as many as its most calling member made.
//  - An OpenMP barrier's (the k-th barrier of a parallel region's instance, by the threads of a rank
//    that passed it): per region instance, as many as the thread that passed the most.
//  - shmem_barrier_all and shmem_sync_all (the n-th call of every PE): as many as the PE that called
//    them most.
//  - A collective over an active set: it joins two or more PEs, so at most half of its calls.
class HubBound {
 public:
  void begin_rank() { collective_calls_.clear(); }
  void begin_thread() { barriers_all_ = 0; }
  void add(const format::Site& s, const format::TraceEvent& e) {
    if (e.communicator != 0 && format::is_mpi_collective_kind(s.kind)) ++collective_calls_[e.communicator];
    if (is_openmp_barrier(s.kind) && e.match != 0) thread_barriers_.push_back(e.match);
    if (format::is_shmem_kind(s.kind)) {
      if (s.name == "shmem_barrier_all" || s.name == "shmem_sync_all")
        ++barriers_all_;
      else if (is_shmem_set_collective(s.kind))
        ++set_calls_;
    }
  }
  void end_thread() {
    std::sort(thread_barriers_.begin(), thread_barriers_.end());
    for (std::size_t i = 0, n = 0; i < thread_barriers_.size(); i += n) {
      n = 1;
      while (i + n < thread_barriers_.size() && thread_barriers_[i + n] == thread_barriers_[i]) ++n;
      rank_barriers_.emplace_back(thread_barriers_[i], n);
    }
    thread_barriers_.clear();
    most_barriers_all_ = std::max(most_barriers_all_, barriers_all_);
  }
  void end_rank(const format::Profile* profile) {
    std::sort(rank_barriers_.begin(), rank_barriers_.end());  // the most of a region: its last
    for (std::size_t i = 0; i < rank_barriers_.size(); ++i)
      if (i + 1 == rank_barriers_.size() || rank_barriers_[i + 1].first != rank_barriers_[i].first)
        openmp_barriers_ += rank_barriers_[i].second;
    rank_barriers_.clear();
    if (!profile) return;
    for (const format::Communicator& c : profile->mpi.communicators)
      if (const auto calls = collective_calls_.find(c.id + 1); calls != collective_calls_.end()) {
        std::uint64_t& most = most_collective_calls_[std::pair(c.members_hash, c.ordinal)];
        most = std::max(most, calls->second);
      }
  }
  std::uint64_t total() const {
    std::uint64_t hubs = openmp_barriers_ + most_barriers_all_ + set_calls_ / 2;
    for (const auto& [communicator, calls] : most_collective_calls_) hubs += calls;
    return hubs;
  }

 private:
  // By communicator (members' hash, ordinal): the most collective calls one rank made on it.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> most_collective_calls_;
  std::unordered_map<std::uint32_t, std::uint64_t> collective_calls_;  // the rank's, by the events' id
  // Flat, not maps (a run of tiny parallel regions has one instance a region, hundreds of thousands):
  // the thread's barriers by region, then each thread's count of each region's.
  std::vector<std::int64_t> thread_barriers_;
  std::vector<std::pair<std::int64_t, std::uint64_t>> rank_barriers_;
  std::uint64_t openmp_barriers_ = 0;
  std::uint64_t barriers_all_ = 0, most_barriers_all_ = 0;
  std::uint64_t set_calls_ = 0;
};

}  // namespace

NodeCounts count_nodes(const TraceRun& traces) {
  NodeCounts counts;
  HubBound hubs;
  for (const RankTrace& rank : traces.ranks) {
    counts.rank_begin.push_back(counts.locations.size());
    const SiteIndex sites(rank.profile);
    hubs.begin_rank();
    for (auto& stream : thread_streams(rank.trace)) {
      hubs.begin_thread();
      LocationSize& size = counts.locations.emplace_back();
      double local = 0;
      format::TraceEvent e;
      while (stream->next(local, e)) {
        ++size.events;
        const std::uint32_t slot = sites.slot(e.site);
        const format::Site* s = slot == SiteIndex::kNone ? nullptr : &rank.profile->sites[slot];
        if (e.kind == format::TraceEventKind::enter || e.kind == format::TraceEventKind::leave) {
          size.points += s ? 1 : 0;
        } else if (e.kind == format::TraceEventKind::recording_off ||
                   e.kind == format::TraceEventKind::recording_on) {
          ++size.points;
        } else if (e.kind == format::TraceEventKind::operation && s) {
          const std::uint32_t points = operation_points(s->kind);
          size.points += points;
          size.operations += points > 0 ? 1 : 0;
          size.matches += points > 0 && keeps_match(s->kind) ? 1 : 0;
          if (is_kind(s->kind, SiteKind::omp_task_create) && e.match != 0) ++size.points;
          hubs.add(*s, e);
        }
      }
      hubs.end_thread();
      counts.nodes += size.points;
    }
    hubs.end_rank(rank.profile);
  }
  counts.nodes += hubs.total();
  return counts;
}

}  // namespace parperf::analysis::graph_points
