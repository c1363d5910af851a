#include "analysis/trace/messages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/site_index.hpp"
#include "analysis/trace/timeline_merge.hpp"

namespace parperf::analysis {
namespace {

// A communicator as every member knows it.
struct CommunicatorIdentity {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint32_t size = 0;
};

// What one site is to the matching, worked out once: its kind, name, and class of one-sided
// transfer (the site-kind table is searched linearly).
struct SiteFacts {
  std::uint32_t kind = 0;
  std::string_view name;
  const format::SiteKindInfo* one_sided = nullptr;  // a put's or get's row, else null
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
    for (const format::Site& s : rank.profile->sites) {
      const format::SiteKindInfo* info = format::site_kind_info(s.kind);
      const bool one_sided =
          info && (info->site_class == format::SiteClass::put || info->site_class == format::SiteClass::get);
      facts.push_back({s.kind, s.name, one_sided ? info : nullptr});
    }
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

// The queues are only ever found by their key, never walked in order (finish() only sums them):
// hashed, not a tree of tuples compared field by field.
struct KeyHash {
  template <class... T>
  std::size_t operator()(const std::tuple<T...>& key) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    std::apply(
        [&](const auto&... field) {
          ((h = (h ^ static_cast<std::uint64_t>(field)) * 0xFF51AFD7ED558CCDull, h ^= h >> 32), ...);
        },
        key);
    return static_cast<std::size_t>(h);
  }
};

// A call waiting for its partner: a send (with the bytes it sent) or a receive.
struct PendingCall {
  CallSide side;
  std::uint64_t bytes = 0;  // a send's
  CallKind kind = 0;
};

// The calls of one (sender, receiver, communicator, tag) waiting for their partners, in their order:
// sends, or receives, never both (a call takes the first waiting call of the other kind if there is
// one).
struct WaitingCalls {
  bool sends = true;
  std::size_t taken = 0;  // calls at the front already matched
  std::vector<PendingCall> calls;
  std::size_t waiting() const { return calls.size() - taken; }
};

struct Matcher {
  Communication result;
  std::unordered_map<MessageKey, WaitingCalls, KeyHash> waiting;  // one lookup a call
  std::unordered_map<InstanceKey, std::pair<CollectiveInstance, std::uint32_t>, KeyHash>
      open_instances;  // with the size

  // A send (`is_send`) or a receive of `key`: matched with the first call of the other kind waiting
  // under it, else left to wait.
  void call(const MessageKey& key, bool is_send, const CallSide& side, CallKind kind, std::uint64_t bytes) {
    WaitingCalls& w = waiting[key];
    if (w.waiting() > 0 && w.sends != is_send) {
      const PendingCall& partner = w.calls[w.taken++];
      if (is_send)
        result.messages.push_back({side, partner.side, std::get<4>(key), bytes, kind, partner.kind});
      else
        result.messages.push_back({partner.side, side, std::get<4>(key), partner.bytes, partner.kind, kind});
      if (w.waiting() == 0) {  // kept, with its room, for the key's next calls
        w.calls.clear();
        w.taken = 0;
      } else if (w.taken >= 64 && 2 * w.taken >= w.calls.size()) {  // a key that never empties
        w.calls.erase(w.calls.begin(), w.calls.begin() + static_cast<std::ptrdiff_t>(w.taken));
        w.taken = 0;
      }
      return;
    }
    w.sends = is_send;
    w.calls.push_back({side, bytes, kind});
  }
  void collective(const InstanceKey& key, std::uint32_t size, const CallSide& side, std::uint32_t kind,
                  std::string_view name, std::int64_t root) {
    auto [it, created] = open_instances.try_emplace(key);
    CollectiveInstance& instance = it->second.first;
    if (created) {
      instance.members_hash = std::get<0>(key);
      instance.ordinal = std::get<1>(key);
      instance.sequence = std::get<2>(key);
      instance.kind = kind;
      instance.name = std::string(name);
      instance.root = root;
      // MPI_Ibarrier, MPI_Ibcast, ...: the call only starts the collective.
      instance.blocking = !(name.size() > 5 && name.substr(0, 5) == "MPI_I");
      it->second.second = size;
    }
    instance.members.push_back(side);
    if (instance.members.size() < it->second.second) return;
    std::sort(instance.members.begin(), instance.members.end(),
              [](const CallSide& a, const CallSide& b) { return a.rank < b.rank; });
    result.collectives.push_back(std::move(instance));
    open_instances.erase(it);
  }
  Communication finish() {
    for (const auto& [key, calls] : waiting)
      (calls.sends ? result.unmatched_sends : result.unmatched_receives) += calls.waiting();
    result.incomplete_collectives = open_instances.size();
    std::sort(result.collectives.begin(), result.collectives.end(),
              [](const CollectiveInstance& a, const CollectiveInstance& b) {
                return std::tie(a.members_hash, a.ordinal, a.sequence) <
                       std::tie(b.members_hash, b.ordinal, b.sequence);
              });
    return std::move(result);
  }
};

// The put or get `e` is, or nothing for another operation.
std::optional<OneSidedTransfer> one_sided_transfer(const RankContext& rank, const SiteFacts* site,
                                                   const TimelineEvent& e) {
  const format::SiteKindInfo* info = site ? site->one_sided : nullptr;
  if (!info) return std::nullopt;
  OneSidedTransfer t;
  t.origin = {
      .rank = static_cast<std::int32_t>(e.rank),
      .thread = e.thread,
      .site = e.event.site,
      .index = static_cast<std::uint32_t>(e.index),
      .start_ns = e.time_ns,
      .end_ns = rank.clock->apply(e.local_ns + static_cast<double>(e.event.duration) * rank.ns_per_tick)};
  t.kind = static_cast<CallKind>(info->kind);
  t.target = e.event.partner;
  t.put = info->site_class == format::SiteClass::put;
  t.bytes = e.event.bytes;
  return t;
}

}  // namespace

Communication match_communication(const TraceRun& traces) {
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
  Matcher matcher;
  auto streams = all_thread_streams(traces);
  const auto each_operation = [&](const TimelineEvent& e) {
    const auto number = static_cast<std::uint64_t>(e.rank);
    const RankContext& rank =
        number < dense_ranks.size() && dense_ranks[number] ? *dense_ranks[number] : sparse_ranks.at(e.rank);
    const SiteFacts* site = rank.facts_of(e.event.site);
    if (e.event.partner >= 0)
      if (const auto transfer = one_sided_transfer(rank, site, e))
        matcher.result.one_sided.push_back(*transfer);
    if (e.event.communicator == 0) return;
    const CommunicatorIdentity* communicator = rank.communicator(e.event.communicator);
    if (!communicator) return;  // not in the profile: no identity to match on
    const CommunicatorIdentity& id = *communicator;
    CallSide side;
    side.rank = static_cast<std::int32_t>(e.rank);
    side.thread = e.thread;
    side.site = e.event.site;
    const std::uint32_t kind = site ? site->kind : 0;
    side.start_ns = e.time_ns;
    side.end_ns = rank.clock->apply(e.local_ns + static_cast<double>(e.event.duration) * rank.ns_per_tick);
    side.index = static_cast<std::uint32_t>(e.index);
    if (format::is_mpi_collective_kind(kind)) {
      matcher.collective({id.members_hash, id.ordinal, static_cast<std::uint64_t>(e.event.match)}, id.size,
                         side, kind, site ? site->name : std::string_view{}, e.event.partner);
      return;
    }
    if (e.event.partner < 0) return;
    // A Sendrecv is traced with a communicator only when it exchanges with one partner under one
    // tag: it sends to its partner and receives from it.
    if (sends_message(kind))
      matcher.call({e.rank, e.event.partner, id.members_hash, id.ordinal, e.event.match}, true, side,
                   static_cast<CallKind>(kind), e.event.bytes);
    if (receives_message(kind))
      matcher.call({e.event.partner, e.rank, id.members_hash, id.ordinal, e.event.match}, false, side,
                   static_cast<CallKind>(kind), 0);
  };
  // Only the operations are matched: the intervals' events never enter the merge.
  merge_timeline(streams, traces.clocks, each_operation, nullptr,
                 event_kind_bit(format::TraceEventKind::operation));
  return matcher.finish();
}

std::string site_location(const RankTrace& rank, std::uint32_t site) {
  if (rank.profile)
    for (const format::Site& s : rank.profile->sites) {
      if (s.id != site) continue;
      const SiteLocation where =
          rank.sites ? rank.sites->location(rank.rank, s) : SiteLocation{s.file, s.line, 0, {}, {}};
      // The file's name, as the rest of the report names source files (the path is in the sites).
      const std::string file = std::filesystem::path(where.file).filename().string();
      if (!file.empty()) return where.line > 0 ? fmt::format("{}:{}", file, where.line) : file;
    }
  return site_name(rank, site);
}

}  // namespace parperf::analysis
