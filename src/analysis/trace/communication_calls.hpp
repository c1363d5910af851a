// The calls of a run's ranks that the matching pairs (messages.hpp), read from the traces in
// corrected time order: each message call with its channel, each collective member with its instance,
// each one-sided transfer. What the whole run's matching (match_communication) and a part's
// (part_matching.hpp) read alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/trace/messages.hpp"
#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/site_index.hpp"
#include "analysis/trace/timeline_merge.hpp"
#include "analysis/trace/tuple_hash.hpp"
#include "analysis/trace/window_epochs.hpp"
#include "analysis/trace/window_locks.hpp"

namespace parperf::analysis::communication_calls {

// A communicator as every member knows it.
struct CommunicatorIdentity {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint32_t size = 0;
};

// What one site is to the matching, worked out once: its kind, name, and the data its one-sided
// calls move (the site-kind table is searched linearly, MPI's calls told apart by name).
struct SiteFacts {
  std::uint32_t kind = 0;
  std::string_view name;
  OneSidedData one_sided = OneSidedData::none;
  WindowLockCall window_lock = WindowLockCall::none;
  WindowEpochCall window_epoch = WindowEpochCall::none;
};

// What one rank's events refer to, looked up once: per event, only table loads (the sites and
// communicators by id, densely numbered by the collectors) and no map of the rank's clock.
struct RankContext {
  const RankTrace* trace = nullptr;
  double ns_per_tick = 1;
  const RankClock* clock = nullptr;
  SiteIndex sites;
  std::vector<SiteFacts> facts;                                    // by site slot
  std::vector<std::optional<CommunicatorIdentity>> communicators;  // by the events' id (+1), when dense
  std::unordered_map<std::uint32_t, CommunicatorIdentity> sparse_communicators;  // else

  RankContext(const RankTrace& rank, const ClockCorrection& clocks)
      : trace(&rank),
        ns_per_tick(analysis::ns_per_tick(*rank.trace)),
        clock(&clocks.of(rank.rank)),
        sites(rank.profile) {
    if (!rank.profile) return;
    facts.reserve(rank.profile->sites.size());
    for (const format::Site& s : rank.profile->sites)
      facts.push_back({s.kind, s.name, one_sided_data(s.kind, s.name), window_lock_call(s.kind, s.name),
                       window_epoch_call(s.kind, s.name)});
    const auto& all = rank.profile->mpi.communicators;
    std::uint64_t largest = 0;
    for (const format::Communicator& c : all) largest = std::max<std::uint64_t>(largest, c.id + 1ull);
    const bool dense = largest < 4 * all.size() + 64;
    if (dense) communicators.resize(all.empty() ? 0 : largest + 1);
    for (const format::Communicator& c : all) {
      const CommunicatorIdentity id{c.members_hash, c.ordinal, c.size};
      if (dense)
        communicators[c.id + 1] = id;
      else
        sparse_communicators[c.id + 1] = id;
    }
  }
  const SiteFacts* facts_of(std::uint32_t site) const {
    const std::uint32_t slot = sites.slot(site);
    return slot == SiteIndex::kNone ? nullptr : &facts[slot];
  }
  const CommunicatorIdentity* communicator(std::uint32_t id) const {
    if (!sparse_communicators.empty()) {
      const auto it = sparse_communicators.find(id);
      return it == sparse_communicators.end() ? nullptr : &it->second;
    }
    return id < communicators.size() && communicators[id] ? &*communicators[id] : nullptr;
  }
};

using MessageKey = std::tuple<std::int64_t, std::int64_t, std::uint64_t, std::uint32_t, std::int64_t>;
using InstanceKey = std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>;

// The queues are only ever found by their key, never walked in order (finish() only sums them).
using KeyHash = TupleHash;

// A call's place in the merged timeline (timeline_merge.hpp): by corrected time, then rank, thread
// and its place in its stream.
inline std::tuple<double, std::int32_t, std::uint32_t, std::uint32_t> merge_key(const CallSide& side) {
  return {side.start_ns, side.rank, side.thread, side.index};
}

// The put or get `e` is, or nothing for another operation.
inline std::optional<OneSidedTransfer> one_sided_transfer(const RankContext& rank, const SiteFacts* site,
                                                          const TimelineEvent& e) {
  if (!site || site->one_sided == OneSidedData::none) return std::nullopt;
  OneSidedTransfer t;
  t.origin = {
      .rank = static_cast<std::int32_t>(e.rank),
      .thread = e.thread,
      .site = e.event.site,
      .index = static_cast<std::uint32_t>(e.index),
      .start_ns = e.time_ns,
      .end_ns = rank.clock->apply(e.local_ns + static_cast<double>(e.event.duration) * rank.ns_per_tick)};
  t.kind = static_cast<CallKind>(site->kind);
  t.target = e.event.partner;
  t.put = site->one_sided == OneSidedData::put;
  t.bytes = e.event.bytes;
  return t;
}

// Reads every operation of the run's ranks in corrected time order and hands the matching what it
// pairs: sink.message(key, is_send, side, kind, bytes) for a send or a receive (a Sendrecv is both),
// sink.collective(key, members, side, kind, name, root) for a collective's member,
// sink.one_sided(transfer) for a put or get, sink.window_lock(event) for an MPI window's lock or
// unlock, and sink.window_epoch(event) for a post-start-complete-wait call's event. `observer`, when given,
// sees every event read (observe_streams).
template <class Sink>
void read_calls(const TraceRun& traces, Sink& sink, StreamObserver* observer = nullptr) {
  // Each rank's context, the first trace of a rank as the streams find it; by rank in a table when
  // the ranks are numbered densely (always, for MPI), else in a hash map.
  std::unordered_map<std::int64_t, RankContext> sparse_ranks;
  for (const RankTrace& rank : traces.ranks) sparse_ranks.try_emplace(rank.rank, rank, traces.clocks);
  std::vector<const RankContext*> dense_ranks;  // a rank not in it is looked up in the map
  if (std::all_of(traces.ranks.begin(), traces.ranks.end(), [&](const RankTrace& r) {
        return r.rank >= 0 && static_cast<std::uint64_t>(r.rank) < 4 * traces.ranks.size() + 64;
      }))
    for (const auto& [number, context] : sparse_ranks) {
      if (dense_ranks.size() <= static_cast<std::size_t>(number))
        dense_ranks.resize(static_cast<std::size_t>(number) + 1, nullptr);
      dense_ranks[static_cast<std::size_t>(number)] = &context;
    }
  auto streams = all_thread_streams(traces);
  if (observer) observe_streams(streams, *observer);
  const auto each_operation = [&](const TimelineEvent& e) {
    const auto number = static_cast<std::uint64_t>(e.rank);
    const RankContext& rank =
        number < dense_ranks.size() && dense_ranks[number] ? *dense_ranks[number] : sparse_ranks.at(e.rank);
    const SiteFacts* site = rank.facts_of(e.event.site);
    if (site && site->one_sided != OneSidedData::none) {
      // A put or get is no message, collective, lock or epoch call (its communicator, when the
      // collector names its window, is for the exports).
      if (e.event.partner >= 0)
        if (const auto transfer = one_sided_transfer(rank, site, e)) sink.one_sided(*transfer);
      return;
    }
    const auto call_side = [&] {
      CallSide side;
      side.rank = static_cast<std::int32_t>(e.rank);
      side.thread = e.thread;
      side.site = e.event.site;
      side.start_ns = e.time_ns;
      side.end_ns = rank.clock->apply(e.local_ns + static_cast<double>(e.event.duration) * rank.ns_per_tick);
      side.index = static_cast<std::uint32_t>(e.index);
      return side;
    };
    if (site && site->window_lock != WindowLockCall::none) {
      WindowLockEvent lock;
      lock.call = site->window_lock == WindowLockCall::try_lock ? WindowLockCall::lock : site->window_lock;
      if (is_kind(site->kind, format::SiteKind::shmem_lock)) {
        // Its match is its lock, a positive number (0: a test_lock that did not take it, or a
        // collector that did not name the lock).
        if (e.event.match == 0 && site->window_lock == WindowLockCall::try_lock) return;
        lock.known_window = e.event.match > 0;
        lock.window = kShmemLocks;
        lock.target = e.event.match;
      } else {
        // Its communicator is its window's (none from a collector that did not trace it).
        const CommunicatorIdentity* window =
            e.event.communicator ? rank.communicator(e.event.communicator) : nullptr;
        lock.known_window = window != nullptr;
        if (window) lock.window = {window->members_hash, window->ordinal};
        lock.target = e.event.partner;
        lock.shared = e.event.match == static_cast<std::int64_t>(format::WindowLockType::shared);
      }
      lock.side = call_side();
      sink.window_lock(lock);
      return;
    }
    if (site && site->window_epoch != WindowEpochCall::none) {
      WindowEpochEvent epoch;
      const CommunicatorIdentity* window =
          e.event.communicator ? rank.communicator(e.event.communicator) : nullptr;
      epoch.known_window = window != nullptr;
      if (window) epoch.window = {window->members_hash, window->ordinal};
      epoch.call = site->window_epoch;
      epoch.partner = e.event.partner;
      epoch.match = e.event.match;
      epoch.side = call_side();
      sink.window_epoch(epoch);
      return;
    }
    if (e.event.communicator == 0) return;
    const CommunicatorIdentity* communicator = rank.communicator(e.event.communicator);
    if (!communicator) return;  // not in the profile: no identity to match on
    const CommunicatorIdentity& id = *communicator;
    const CallSide side = call_side();
    const std::uint32_t kind = site ? site->kind : 0;
    if (format::is_mpi_instance(kind, site ? site->name : std::string_view{})) {
      sink.collective({id.members_hash, id.ordinal, static_cast<std::uint64_t>(e.event.match)}, id.size, side,
                      kind, site ? site->name : std::string_view{}, e.event.partner);
      return;
    }
    if (e.event.partner < 0) return;
    // A Sendrecv is traced with a communicator only when it exchanges with one partner under one
    // tag: it sends to its partner and receives from it.
    if (sends_message(kind))
      sink.message({e.rank, e.event.partner, id.members_hash, id.ordinal, e.event.match}, true, side,
                   static_cast<CallKind>(kind), e.event.bytes);
    if (receives_message(kind))
      sink.message({e.event.partner, e.rank, id.members_hash, id.ordinal, e.event.match}, false, side,
                   static_cast<CallKind>(kind), 0);
  };
  // Only the operations are matched: the intervals' events never enter the merge.
  merge_timeline(streams, traces.clocks, each_operation, nullptr,
                 event_kind_bit(format::TraceEventKind::operation));
  if (observer) observer->end();
}

}  // namespace parperf::analysis::communication_calls
