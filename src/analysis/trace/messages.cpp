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

// Where an event comes in the time-ordered merge of every stream (merge_timeline): by corrected time,
// then by the stream's place among (rank, thread), then by its place in its stream. Matching needs
// no merge: MPI's non-overtaking rule pairs the n-th send of a (sender, receiver, communicator, tag)
// with the n-th such receive, whatever the other ranks did in between, so each stream is read on its
// own, in sequence, and only the results are put in the order the merge would have given them.
struct MergeOrder {
  double time_ns = 0;
  std::uint32_t place = 0;
  std::uint64_t index = 0;
  bool operator<(const MergeOrder& o) const {
    return std::tie(time_ns, place, index) < std::tie(o.time_ns, o.place, o.index);
  }
};

template <class T>
struct Seen {
  T value;
  MergeOrder order;
};
template <class T>
void sort_by_order(std::vector<Seen<T>>& list) {
  const auto earlier = [](const Seen<T>& a, const Seen<T>& b) { return a.order < b.order; };
  if (!std::is_sorted(list.begin(), list.end(), earlier)) std::stable_sort(list.begin(), list.end(), earlier);
}

struct PendingSend {
  CallSide side;
  std::uint64_t bytes = 0;
};

// One member's call of a collective, with what the instance takes from its first member.
struct MemberCall {
  CallSide side;
  std::uint32_t size = 0;  // the communicator's, as this member's profile has it
  std::string_view name;
  std::int64_t root = -1;
};

// When the merge would have completed a message: when the later of its two sides was seen (a send
// before a receive when one event is both, as a Sendrecv's send is matched first). Sorted apart from
// the messages, which are large to move.
struct Completion {
  MergeOrder order;
  bool by_receive = false;
  std::uint32_t message = 0;
  bool operator<(const Completion& o) const {
    return std::tie(order, by_receive) < std::tie(o.order, o.by_receive);
  }
};

struct Matcher {
  std::unordered_map<MessageKey, std::pair<std::vector<Seen<PendingSend>>, std::vector<Seen<CallSide>>>,
                     KeyHash>
      queues;  // the sends and the receives of each key
  std::unordered_map<InstanceKey, std::vector<Seen<MemberCall>>, KeyHash> instances;
  std::vector<Seen<OneSidedTransfer>> one_sided;

  Communication finish() {
    Communication result;
    std::vector<Message> messages;
    std::vector<Completion> completions;
    for (auto& [key, queue] : queues) {
      auto& [sends, receives] = queue;
      sort_by_order(sends);
      sort_by_order(receives);
      const std::size_t paired = std::min(sends.size(), receives.size());
      for (std::size_t k = 0; k < paired; ++k) {
        const bool by_receive = !(receives[k].order < sends[k].order);
        completions.push_back({by_receive ? receives[k].order : sends[k].order, by_receive,
                               static_cast<std::uint32_t>(messages.size())});
        messages.push_back({sends[k].value.side, receives[k].value, std::get<4>(key), sends[k].value.bytes});
      }
      result.unmatched_sends += sends.size() - paired;
      result.unmatched_receives += receives.size() - paired;
    }
    queues.clear();
    std::sort(completions.begin(), completions.end());
    result.messages.reserve(messages.size());
    for (const Completion& c : completions) result.messages.push_back(messages[c.message]);
    for (auto& [key, calls] : instances) {
      sort_by_order(calls);
      // An instance is complete when as many members as its communicator has called; a member after
      // that begins another instance, as in the merge.
      for (std::size_t first = 0; first < calls.size();) {
        const MemberCall& leader = calls[first].value;
        const std::size_t last = first + std::max<std::uint32_t>(leader.size, 1);
        if (last > calls.size()) {
          ++result.incomplete_collectives;
          break;
        }
        CollectiveInstance instance;
        instance.members_hash = std::get<0>(key);
        instance.ordinal = std::get<1>(key);
        instance.sequence = std::get<2>(key);
        instance.kind = leader.side.kind;
        instance.name = std::string(leader.name);
        instance.root = leader.root;
        // MPI_Ibarrier, MPI_Ibcast, ...: the call only starts the collective.
        instance.blocking = !(leader.name.size() > 5 && leader.name.substr(0, 5) == "MPI_I");
        for (std::size_t m = first; m < last; ++m) instance.members.push_back(calls[m].value.side);
        std::stable_sort(instance.members.begin(), instance.members.end(),
                         [](const CallSide& a, const CallSide& b) { return a.rank < b.rank; });
        result.collectives.push_back(std::move(instance));
        first = last;
      }
    }
    std::stable_sort(result.collectives.begin(), result.collectives.end(),
                     [](const CollectiveInstance& a, const CollectiveInstance& b) {
                       return std::tie(a.members_hash, a.ordinal, a.sequence) <
                              std::tie(b.members_hash, b.ordinal, b.sequence);
                     });
    sort_by_order(one_sided);
    result.one_sided.reserve(one_sided.size());
    for (Seen<OneSidedTransfer>& t : one_sided) result.one_sided.push_back(t.value);
    return result;
  }
};

// The put or get `e` is, or nothing for another operation.
std::optional<OneSidedTransfer> one_sided_transfer(const SiteFacts* site, const CallSide& side,
                                                   const format::TraceEvent& e) {
  const format::SiteKindInfo* info = site ? site->one_sided : nullptr;
  if (!info) return std::nullopt;
  OneSidedTransfer t;
  t.origin = side;
  t.origin.kind = static_cast<std::uint32_t>(info->kind);
  t.target = e.partner;
  t.put = info->site_class == format::SiteClass::put;
  t.bytes = e.bytes;
  return t;
}

// Reads one thread's operations into the matcher's queues.
void read_stream(ThreadEvents& stream, std::uint32_t place, const RankContext& rank, Matcher& matcher) {
  double local_ns = 0;
  format::TraceEvent e;
  for (std::uint64_t index = 0; stream.next(local_ns, e); ++index) {
    if (e.kind != format::TraceEventKind::operation) continue;
    const bool one_sided = e.partner >= 0;
    if (e.communicator == 0 && !one_sided) continue;
    const SiteFacts* site = rank.facts_of(e.site);
    CallSide side;
    side.rank = stream.rank();
    side.thread = stream.thread();
    side.site = e.site;
    side.kind = site ? site->kind : 0;
    side.start_ns = rank.clock->apply(local_ns);
    side.end_ns = rank.clock->apply(local_ns + static_cast<double>(e.duration) * rank.ns_per_tick);
    side.index = index;
    const MergeOrder order{side.start_ns, place, index};
    if (one_sided)
      if (const auto transfer = one_sided_transfer(site, side, e))
        matcher.one_sided.push_back({*transfer, order});
    if (e.communicator == 0) continue;
    const CommunicatorIdentity* communicator = rank.communicator(e.communicator);
    if (!communicator) continue;  // not in the profile: no identity to match on
    const CommunicatorIdentity& id = *communicator;
    if (format::is_mpi_collective_kind(side.kind)) {
      matcher.instances[{id.members_hash, id.ordinal, static_cast<std::uint64_t>(e.match)}].push_back(
          {{side, id.size, site ? site->name : std::string_view{}, e.partner}, order});
      continue;
    }
    if (e.partner < 0) continue;
    // A Sendrecv is traced with a communicator only when it exchanges with one partner under one
    // tag: it sends to its partner and receives from it.
    if (sends_message(side.kind))
      matcher.queues[{side.rank, e.partner, id.members_hash, id.ordinal, e.match}].first.push_back(
          {{side, e.bytes}, order});
    if (receives_message(side.kind))
      matcher.queues[{e.partner, side.rank, id.members_hash, id.ordinal, e.match}].second.push_back(
          {side, order});
  }
}

}  // namespace

Communication match_communication(const TraceRun& traces) {
  auto streams = all_thread_streams(traces);
  // Each stream's place among equal times, as merge_timeline orders them: by rank, then thread.
  std::vector<std::size_t> by_rank(streams.size());
  for (std::size_t i = 0; i < streams.size(); ++i) by_rank[i] = i;
  std::stable_sort(by_rank.begin(), by_rank.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(streams[a]->rank(), streams[a]->thread()) <
           std::pair(streams[b]->rank(), streams[b]->thread());
  });
  std::unordered_map<std::int64_t, RankContext> ranks;
  for (const RankTrace& rank : traces.ranks) ranks.try_emplace(rank.rank, rank, traces.clocks);
  Matcher matcher;
  for (std::size_t place = 0; place < by_rank.size(); ++place) {
    ThreadEvents& stream = *streams[by_rank[place]];
    read_stream(stream, static_cast<std::uint32_t>(place), ranks.at(stream.rank()), matcher);
  }
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
